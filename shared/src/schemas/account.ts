import { z } from 'zod'
import { messages } from '../messages.ts'
import { Agent } from './agent.ts'
import { Email, Id } from './common.ts'

/** SPEC §5: shorter than 8 is a warning only, never a refusal. */
export const RECOMMENDED_PASSWORD_LENGTH = 8

export const Password = z
  .string({ error: 'Password is required' })
  .min(1, { error: 'Password is required' })
  .max(200, { error: 'Password must be at most 200 characters' })

export const SignupBody = z
  .object({
    porchlightUserEmailId: Email,
    porchlightUserPass: Password,
    porchlightUserPassVerify: z.string(),
  })
  .refine((b) => b.porchlightUserPass === b.porchlightUserPassVerify, {
    path: ['porchlightUserPassVerify'],
    error: messages.passwordNotMatching,
  })
export type SignupBody = z.input<typeof SignupBody>

export const AuthenticateBody = z.object({
  porchlightUserEmailId: Email,
  porchlightUserPass: Password,
})
export type AuthenticateBody = z.input<typeof AuthenticateBody>

export const ResetPasswordBody = z.object({ porchlightUserEmailId: Email })

/** The current password is asked for, except in a session opened with a temporary password. */
export const ChangePasswordBody = z.object({
  id: Id,
  porchlightUserPass: Password,
  currentPassword: z.string().max(200).optional(),
})
export type ChangePasswordBody = z.input<typeof ChangePasswordBody>

/** A new sign-in email takes effect once the code mailed to it is entered (`confirmEmailChange`). */
export const UpdateUserBody = z.object({
  porchlightUserEmailId: Email,
  /** Needed unless the session was opened with a temporary password. */
  currentPassword: z.string().max(200).optional(),
})
export type UpdateUserBody = z.input<typeof UpdateUserBody>

export const ValidationCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { error: messages.validationCodeNotValid })

export const ConfirmEmailChangeBody = z.object({ code: ValidationCode })

export const User = z.object({
  id: z.number().int(),
  porchlightUserEmailId: z.string(),
  userEnabled: z.boolean(),
  /** A new sign-in email waiting for its code; the old one signs in until then. */
  pendingEmailId: z.string().nullable().optional(),
})
export type User = z.infer<typeof User>

export const PlanLimits = z.object({
  numberOfOpenHousesCreate: z.number().int(),
  numberOfOpenHousesPublish: z.number().int(),
  numberOfTeamsCreate: z.number().int(),
})

export const PlanUsage = z.object({
  totalCreatedOpenHouses: z.number().int(),
  totalPublishedOpenHouses: z.number().int(),
  totalCreatedTeams: z.number().int(),
})

/** SPEC §3 "Plan utilisation" — kept by the web in session storage. */
export const PlanUtilization = z.object({ pricePlan: PlanLimits, pricingPlanUtilization: PlanUsage })
export type PlanUtilization = z.infer<typeof PlanUtilization>

/** What sign-in and email validation answer (API.md "Sign-in result"). */
export const SignInResult = z.object({
  porchlightUserDTO: z.object({
    id: z.number().int(),
    porchlightUserEmailId: z.string(),
    porchlightUserToken: z.string().nullable(),
    userEnabled: z.boolean(),
  }),
  realEstateAgentDTO: Agent.nullable(),
  activePlan: PlanUtilization.nullable(),
  /** Signed in with a temporary password: the web sends the agent to change it. */
  mustChangePassword: z.boolean(),
})
export type SignInResult = z.infer<typeof SignInResult>

/** GET /signing/session: who the bearer token belongs to, for route guards. */
export const SessionInfo = z.object({
  user: User,
  /** Signed in with a temporary password: the password change needs no current password. */
  recoverySession: z.boolean(),
  agent: Agent.nullable(),
  activePlan: PlanUtilization.nullable(),
})
export type SessionInfo = z.infer<typeof SessionInfo>
