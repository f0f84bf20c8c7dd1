import { useQueryClient } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { errorMessage, formFailure, UNEXPECTED_ERROR } from '../../api/client.ts'
import { readPreLoginProfile } from '../../api/storage.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { useForm } from '../../ui/use-form.ts'
import { rememberSignIn } from '../session/sign-in.ts'
import { useResendCodeMutation, useValidateEmailMutation } from './queries.ts'
import { CodeForm, ValidationCodeField } from './validation-code-field.tsx'
import './account.css'

const routeApi = getRouteApi('/validateEmail')

const CODE_SENT = 'A new validation code has been sent to your email Id.'

/** SPEC /validateEmail: code input, Cancel, Validate, Resend Code. */
export function ValidateEmailPage() {
  const { porchlightUserId } = routeApi.useSearch()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const validate = useValidateEmailMutation()
  const resend = useResendCodeMutation()
  const form = useForm({ code: '' })
  const stored = readPreLoginProfile()
  const email = stored && stored.id === porchlightUserId ? stored.porchlightUserEmailId : null

  if (!porchlightUserId) {
    return (
      <FormPage title="Validate Email Id">
        <Alert tone="error" title="This page needs the link from your sign-up.">
          Sign in with your email Id and password and we will bring you back here.
        </Alert>
        <FormActions>
          <Link to="/signin" variant="button-primary">
            Sign In
          </Link>
        </FormActions>
      </FormPage>
    )
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = form.parse(CodeForm)
    if (!parsed) return
    resend.reset()
    validate.mutate(
      { userId: porchlightUserId, code: parsed.code },
      {
        onSuccess: (result) => {
          rememberSignIn(queryClient, result)
          void navigate({
            to: '/signinsuccess',
            search: { porchlightUserId: result.porchlightUserDTO.id, source: 'emailvalid' },
          })
        },
        onError: (error) => form.showError(formFailure(error, UNEXPECTED_ERROR)),
      },
    )
  }

  return (
    <FormPage
      title="Validate Email Id"
      lede={
        email
          ? `Enter the 6-digit validation code we emailed to ${email}.`
          : 'Enter the 6-digit validation code we emailed to you.'
      }
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Validate Email Id">
        {form.formError && <Alert tone="error" title={form.formError} />}
        {resend.isSuccess && <Alert tone="success" title={CODE_SENT} />}
        {resend.isError && <Alert tone="error" title={errorMessage(resend.error, UNEXPECTED_ERROR)} />}
        <ValidationCodeField
          form={form}
          description="Didn't get it? Check your spam folder or send a new code."
        />
        <FormActions>
          <Link to="/" variant="button-secondary">
            Cancel
          </Link>
          <Button
            variant="secondary"
            isPending={resend.isPending}
            onPress={() => {
              validate.reset()
              resend.mutate(porchlightUserId)
            }}
          >
            Resend Code
          </Button>
          <Button type="submit" variant="primary" isPending={validate.isPending}>
            Validate
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
