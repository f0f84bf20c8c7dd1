import { Email } from '@porchlight/shared'
import { TextField } from '../../ui/TextField.tsx'

/** The part of a `useForm` an email field needs. */
interface EmailForm {
  values: { porchlightUserEmailId: string }
  errors: { porchlightUserEmailId?: string }
  setValue(name: 'porchlightUserEmailId', value: string): void
  check(name: 'porchlightUserEmailId', schema: typeof Email): void
}

/** 'Email Id', checked with SPEC §5's pattern when the field is left. */
export function EmailIdField({
  form,
  autoComplete,
  onEdit,
}: {
  form: EmailForm
  /** 'username' where an existing account signs in, 'email' where one is named. */
  autoComplete: 'username' | 'email'
  /** Called before each change (a page may clear an earlier result). */
  onEdit?: () => void
}) {
  return (
    <TextField
      label="Email Id"
      name="porchlightUserEmailId"
      type="email"
      autoComplete={autoComplete}
      isRequired
      value={form.values.porchlightUserEmailId}
      onChange={(value) => {
        onEdit?.()
        form.setValue('porchlightUserEmailId', value)
      }}
      onBlur={() => form.check('porchlightUserEmailId', Email)}
      errorMessage={form.errors.porchlightUserEmailId}
    />
  )
}
