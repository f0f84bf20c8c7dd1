import { messages, ResetPasswordBody } from '@porchlight/shared'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { useForm } from '../../ui/use-form.ts'
import { useFlashWithEmail } from '../session/flash.ts'
import { EmailIdField } from './email-id-field.tsx'
import { useResetPasswordMutation } from './queries.ts'

/** SPEC /forgotPassword: 'Reset My Password' / 'Resetting & Sending New Password...'. */
export function ForgotPasswordPage() {
  const navigate = useNavigate()
  const reset = useResetPasswordMutation()
  // The sign-in page sends its email along when it offers a temporary password.
  const flash = useFlashWithEmail()
  const form = useForm({ porchlightUserEmailId: flash?.email ?? '' })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = form.parse(ResetPasswordBody)
    if (!body) return
    reset.mutate(body, {
      onSuccess: () => void navigate({ to: '/forgotPassword/confirm' }),
      onError: (error) => form.showError(formFailure(error, messages.passwordResetFailed)),
    })
  }

  return (
    <FormPage
      title="Forgot Password?"
      lede="Enter the email Id you signed up with. We will email you a new temporary password."
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Reset password">
        {form.formError && <Alert tone="error" title={form.formError} />}
        <EmailIdField form={form} autoComplete="username" />
        <FormActions>
          <Link to="/signin" variant="button-secondary">
            Cancel
          </Link>
          <Button type="submit" variant="primary" isPending={reset.isPending}>
            {reset.isPending ? 'Resetting & Sending New Password...' : 'Reset My Password'}
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
