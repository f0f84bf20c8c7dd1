import { ChangePasswordBody, messages } from '@porchlight/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { PasswordField } from '../../ui/PasswordField.tsx'
import { useForm } from '../../ui/use-form.ts'
import { useFlash } from '../session/flash.ts'
import { updateCachedSession, useSessionInfo } from '../session/queries.ts'
import { CurrentPasswordField } from './current-password-field.tsx'
import { CHANGE_PASSWORD_WARNING, passwordWarning } from './passwords.ts'
import { useChangePasswordMutation } from './queries.ts'

/** SPEC /mystuff/changeUserPass: 'User Password Change', Cancel, 'Change'/'Updating...'. */
export function ChangePasswordPage() {
  // Right after a temporary-password sign-in there is no current password to give.
  const { user, recoverySession } = useSessionInfo()
  const queryClient = useQueryClient()
  const flash = useFlash()
  const navigate = useNavigate()
  const change = useChangePasswordMutation()
  const form = useForm({ currentPassword: '', porchlightUserPass: '', porchlightUserPassVerify: '' })
  const { values, errors, setValue } = form
  const passwordsDiffer = values.porchlightUserPass !== values.porchlightUserPassVerify
  const mismatch = values.porchlightUserPassVerify !== '' && passwordsDiffer

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (passwordsDiffer) return
    const body = form.parse(ChangePasswordBody, {
      id: user.id,
      porchlightUserPass: values.porchlightUserPass,
      currentPassword: recoverySession ? undefined : values.currentPassword,
    })
    if (!body) return
    change.mutate(body, {
      onSuccess: () => {
        updateCachedSession(queryClient, { recoverySession: false })
        void navigate({ to: '/mystuff/changeUserPass/confirmPassChange' })
      },
      onError: (error) => form.showError(formFailure(error, messages.changingPasswordFailed)),
    })
  }

  return (
    <FormPage title="User Password Change" lede={`For ${user.porchlightUserEmailId}`}>
      <Form ref={form.formRef} onSubmit={submit} aria-label="User Password Change">
        {/* Lets password managers file the new password under the right account. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={user.porchlightUserEmailId}
          readOnly
          hidden
        />
        {flash && <Alert tone="info" title={flash} />}
        {form.formError && <Alert tone="error" title={form.formError} />}
        <CurrentPasswordField form={form} recovery={recoverySession} />
        <PasswordField
          label="New Password"
          name="porchlightUserPass"
          autoComplete="new-password"
          isRequired
          value={values.porchlightUserPass}
          onChange={(value) => setValue('porchlightUserPass', value)}
          warning={passwordWarning(values.porchlightUserPass, CHANGE_PASSWORD_WARNING)}
          errorMessage={errors.porchlightUserPass}
        />
        <PasswordField
          label="Re-enter New Password"
          name="porchlightUserPassVerify"
          autoComplete="new-password"
          isRequired
          value={values.porchlightUserPassVerify}
          onChange={(value) => setValue('porchlightUserPassVerify', value)}
          errorMessage={mismatch ? messages.passwordNotMatching : undefined}
        />
        <FormActions>
          <Link to="/mystuff" variant="button-secondary">
            Cancel
          </Link>
          <Button type="submit" variant="primary" isDisabled={passwordsDiffer} isPending={change.isPending}>
            {change.isPending ? 'Updating...' : 'Change'}
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
