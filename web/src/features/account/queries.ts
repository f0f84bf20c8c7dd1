import {
  type AuthenticateBody,
  type ChangePasswordBody,
  type ConfirmEmailChangeBody,
  type ResetPasswordBody,
  SignInResult,
  type SignupBody,
  type UpdateUserBody,
  User,
} from '@porchlight/shared'
import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'

// The account calls of API.md (/signing/…). Bodies are the shared schemas' parsed output.

export function useSignupMutation() {
  return useMutation({
    mutationFn: (body: z.output<typeof SignupBody>) =>
      apiRequest('/signing/savePorchlightUser', { method: 'POST', body, schema: User, auth: false }),
  })
}

export function useValidateEmailMutation() {
  return useMutation({
    mutationFn: ({ userId, code }: { userId: number; code: string }) =>
      apiRequest(`/signing/validateEmailId/${userId}/${encodeURIComponent(code)}`, {
        schema: SignInResult,
        auth: false,
      }),
  })
}

export function useResendCodeMutation() {
  return useMutation({
    mutationFn: (userId: number) =>
      apiRequest(`/signing/resendVerificationCode/${userId}`, {
        schema: z.object({ sent: z.boolean() }),
        auth: false,
      }),
  })
}

export function useAuthenticateMutation() {
  return useMutation({
    mutationFn: (body: z.output<typeof AuthenticateBody>) =>
      apiRequest('/signing/authenticate', { method: 'POST', body, schema: SignInResult, auth: false }),
  })
}

export function useResetPasswordMutation() {
  return useMutation({
    mutationFn: (body: z.output<typeof ResetPasswordBody>) =>
      apiRequest('/signing/resetUserPassword', {
        method: 'POST',
        body,
        schema: z.object({ sent: z.boolean() }),
        auth: false,
      }),
  })
}

export function useChangePasswordMutation() {
  return useMutation({
    mutationFn: (body: z.output<typeof ChangePasswordBody>) =>
      apiRequest('/signing/changeUserPassword', {
        method: 'PATCH',
        body,
        schema: z.object({ changed: z.boolean() }),
      }),
  })
}

export function useUpdateUserMutation() {
  return useMutation({
    mutationFn: ({ id, ...body }: z.output<typeof UpdateUserBody> & { id: number }) =>
      apiRequest(`/signing/user/${id}`, { method: 'PATCH', body, schema: User }),
  })
}

export function useConfirmEmailChangeMutation() {
  return useMutation({
    mutationFn: (body: z.output<typeof ConfirmEmailChangeBody>) =>
      apiRequest('/signing/confirmEmailChange', { method: 'POST', body, schema: User }),
  })
}
