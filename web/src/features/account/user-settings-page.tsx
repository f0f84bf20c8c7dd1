import { UpdateUserBody } from '@porchlight/shared'
import { useQueryClient } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { formFailure, UNEXPECTED_ERROR } from '../../api/client.ts'
import { storeUserAndPlan } from '../../api/storage.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { Link } from '../../ui/Link.tsx'
import { useForm } from '../../ui/use-form.ts'
import { FormPage } from '../layout/form-page.tsx'
import { updateCachedSession, useSessionInfo } from '../session/queries.ts'
import { EmailIdField } from './email-id-field.tsx'
import { useUpdateUserMutation } from './queries.ts'

const EMAIL_UPDATED = 'Your email Id was updated.'

/** SPEC 'User Edit' (the welcome link's /dashboard/userSettings): hidden user id, Cancel, Update. */
export function UserSettingsPage() {
  const session = useSessionInfo()
  const queryClient = useQueryClient()
  const update = useUpdateUserMutation()
  const form = useForm({ porchlightUserEmailId: session.user.porchlightUserEmailId })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = form.parse(UpdateUserBody)
    if (!body) return
    update.mutate(
      { id: session.user.id, ...body },
      {
        onSuccess: (user) => {
          updateCachedSession(queryClient, { user })
          storeUserAndPlan(user, session.activePlan)
        },
        onError: (error) => form.showError(formFailure(error, UNEXPECTED_ERROR)),
      },
    )
  }

  return (
    <FormPage title="User Edit" lede="The email Id you sign in with.">
      <Form ref={form.formRef} onSubmit={submit} aria-label="User Edit">
        <input type="hidden" name="id" value={session.user.id} />
        {update.isSuccess && <Alert tone="success" title={EMAIL_UPDATED} />}
        {form.formError && <Alert tone="error" title={form.formError} />}
        <EmailIdField form={form} autoComplete="email" onEdit={() => update.reset()} />
        <FormActions>
          <Link to="/dashboard" variant="button-secondary">
            Cancel
          </Link>
          <Button type="submit" variant="primary" isPending={update.isPending}>
            {update.isPending ? 'Updating...' : 'Update'}
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
