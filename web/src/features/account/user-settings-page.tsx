import { UpdateUserBody } from '@porchlight/shared'
import { useQueryClient } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { formFailure, UNEXPECTED_ERROR } from '../../api/client.ts'
import { storeUserAndPlan } from '../../api/storage.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { useForm } from '../../ui/use-form.ts'
import { updateCachedSession, useSessionInfo } from '../session/queries.ts'
import { CurrentPasswordField } from './current-password-field.tsx'
import { EmailIdField } from './email-id-field.tsx'
import { useConfirmEmailChangeMutation, useUpdateUserMutation } from './queries.ts'
import { CodeForm, ValidationCodeField } from './validation-code-field.tsx'
import './account.css'

const EMAIL_UPDATED = 'Your email Id was updated.'

/**
 * SPEC 'User Edit' (the welcome link's /dashboard/userSettings): hidden user id, Cancel, Update. A new
 * email Id takes the current password (unless the session was opened with a temporary password) and
 * takes effect once the code mailed to it is entered below; the old address is told.
 */
export function UserSettingsPage() {
  const session = useSessionInfo()
  const { user, recoverySession } = session
  const queryClient = useQueryClient()
  const update = useUpdateUserMutation()
  const confirm = useConfirmEmailChangeMutation()
  const form = useForm({ porchlightUserEmailId: user.porchlightUserEmailId, currentPassword: '' })
  const codeForm = useForm({ code: '' })
  const pending = user.pendingEmailId ?? null

  const remember = (next: typeof user) => {
    updateCachedSession(queryClient, { user: next })
    storeUserAndPlan(next, session.activePlan)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    confirm.reset()
    const body = form.parse(UpdateUserBody, {
      porchlightUserEmailId: form.values.porchlightUserEmailId,
      currentPassword: recoverySession ? undefined : form.values.currentPassword,
    })
    if (!body) return
    update.mutate(
      { id: user.id, ...body },
      {
        onSuccess: (next) => {
          remember(next)
          form.setValue('currentPassword', '')
          codeForm.setValue('code', '')
        },
        onError: (error) => form.showError(formFailure(error, UNEXPECTED_ERROR)),
      },
    )
  }

  const submitCode = (event: FormEvent) => {
    event.preventDefault()
    const parsed = codeForm.parse(CodeForm)
    if (!parsed) return
    confirm.mutate(parsed, {
      onSuccess: (next) => {
        remember(next)
        update.reset()
        form.setValue('porchlightUserEmailId', next.porchlightUserEmailId)
        codeForm.setValue('code', '')
      },
      onError: (error) => codeForm.showError(formFailure(error, UNEXPECTED_ERROR)),
    })
  }

  return (
    <FormPage title="User Edit" lede={`You sign in with ${user.porchlightUserEmailId}.`}>
      {confirm.isSuccess && <Alert tone="success" title={EMAIL_UPDATED} />}
      <Form ref={form.formRef} onSubmit={submit} aria-label="User Edit">
        <input type="hidden" name="id" value={user.id} />
        {update.isSuccess && !pending && <Alert tone="success" title={EMAIL_UPDATED} />}
        {form.formError && <Alert tone="error" title={form.formError} />}
        <EmailIdField
          form={form}
          autoComplete="email"
          onEdit={() => {
            update.reset()
            confirm.reset()
          }}
        />
        <CurrentPasswordField form={form} recovery={recoverySession} />
        <FormActions>
          <Link to="/dashboard" variant="button-secondary">
            Cancel
          </Link>
          <Button type="submit" variant="primary" isPending={update.isPending}>
            {update.isPending ? 'Updating...' : 'Update'}
          </Button>
        </FormActions>
      </Form>
      {pending && (
        <Form
          ref={codeForm.formRef}
          onSubmit={submitCode}
          aria-label="Confirm new email Id"
          className="account__confirm"
        >
          <h2>Confirm {pending}</h2>
          <Alert tone="info" title={`We emailed a 6-digit code to ${pending}.`}>
            Enter it here to sign in with that address from now on. Until then you sign in with{' '}
            {user.porchlightUserEmailId}.
          </Alert>
          {codeForm.formError && <Alert tone="error" title={codeForm.formError} />}
          <ValidationCodeField
            form={codeForm}
            description="Didn't get it? Check your spam folder, or press Update again for a new code."
          />
          <FormActions>
            <Button type="submit" variant="primary" isPending={confirm.isPending}>
              {confirm.isPending ? 'Confirming...' : 'Confirm'}
            </Button>
          </FormActions>
        </Form>
      )}
    </FormPage>
  )
}
