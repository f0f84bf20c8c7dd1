import { ValidationCode } from '@porchlight/shared'
import { z } from 'zod'
import { TextField } from '../../ui/TextField.tsx'

/** SPEC §5 "Email validation: code required"; then the 6 digits the mail carries. */
export const CodeForm = z.object({
  code: z.string().trim().min(1, { error: 'Validation Code is required' }).pipe(ValidationCode),
})

/** The part of a `useForm` a code field needs. */
interface CodeFormState {
  values: { code: string }
  errors: { code?: string }
  setValue(name: 'code', value: string): void
}

/** 'Validation Code': the 6 digits a mail carries, offered by the phone's one-time-code autofill. */
export function ValidationCodeField({ form, description }: { form: CodeFormState; description: string }) {
  return (
    <TextField
      label="Validation Code"
      name="code"
      className="account__code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      isRequired
      value={form.values.code}
      onChange={(value) => form.setValue('code', value)}
      errorMessage={form.errors.code}
      description={description}
    />
  )
}
