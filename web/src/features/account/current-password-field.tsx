import { PasswordField } from '../../ui/PasswordField.tsx'

/** The part of a `useForm` the field needs. */
interface CurrentPasswordForm {
  values: { currentPassword: string }
  errors: { currentPassword?: string }
  setValue(name: 'currentPassword', value: string): void
}

/**
 * 'Current Password', asked before the password or the sign-in email changes; not shown in a session
 * opened with a temporary password, which has none to give.
 */
export function CurrentPasswordField({ form, recovery }: { form: CurrentPasswordForm; recovery: boolean }) {
  if (recovery) return null
  return (
    <PasswordField
      label="Current Password"
      name="currentPassword"
      autoComplete="current-password"
      isRequired
      value={form.values.currentPassword}
      onChange={(value) => form.setValue('currentPassword', value)}
      errorMessage={form.errors.currentPassword}
    />
  )
}
