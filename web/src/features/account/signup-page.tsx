import { messages, RECOMMENDED_PASSWORD_LENGTH, SignupBody } from '@porchlight/shared'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formFailure, UNEXPECTED_ERROR } from '../../api/client.ts'
import { storeUserAndPlan } from '../../api/storage.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Checkbox } from '../../ui/Checkbox.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { PasswordField } from '../../ui/PasswordField.tsx'
import { useForm } from '../../ui/use-form.ts'
import { EmailIdField } from './email-id-field.tsx'
import { passwordWarning } from './passwords.ts'
import { useSignupMutation } from './queries.ts'
import { TermsSummary } from './terms-summary.tsx'
import './account.css'

/** SPEC /signup: '{brand} User Signup'; on success the 6-digit code is mailed (SPEC §4). */
export function SignupPage() {
  const navigate = useNavigate()
  const signup = useSignupMutation()
  const form = useForm({
    porchlightUserEmailId: '',
    porchlightUserPass: '',
    porchlightUserPassVerify: '',
    agreed: false,
  })
  const { values, errors, setValue } = form
  const passwordsDiffer = values.porchlightUserPass !== values.porchlightUserPassVerify
  const mismatch = values.porchlightUserPassVerify !== '' && passwordsDiffer

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = form.parse(SignupBody)
    if (!body || !values.agreed) return
    signup.mutate(body, {
      onSuccess: (user) => {
        storeUserAndPlan(user, null)
        void navigate({ to: '/validateEmail', search: { porchlightUserId: user.id } })
      },
      onError: (error) => form.showError(formFailure(error, UNEXPECTED_ERROR)),
    })
  }

  return (
    <FormPage
      title="Porchlight User Signup"
      lede="Create your account. We will email you a 6-digit code to validate your email Id."
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Porchlight User Signup">
        {form.formError && <Alert tone="error" title={form.formError} />}
        <EmailIdField form={form} autoComplete="email" />
        <PasswordField
          label="Password"
          name="porchlightUserPass"
          autoComplete="new-password"
          isRequired
          value={values.porchlightUserPass}
          onChange={(value) => setValue('porchlightUserPass', value)}
          warning={passwordWarning(values.porchlightUserPass, messages.recommendedPasswordLength)}
          description={`Use ${RECOMMENDED_PASSWORD_LENGTH} or more characters.`}
          errorMessage={errors.porchlightUserPass}
        />
        <PasswordField
          label="Re-enter Password"
          name="porchlightUserPassVerify"
          autoComplete="new-password"
          isRequired
          value={values.porchlightUserPassVerify}
          onChange={(value) => setValue('porchlightUserPassVerify', value)}
          errorMessage={mismatch ? messages.passwordNotMatching : errors.porchlightUserPassVerify}
        />
        <TermsSummary />
        <Checkbox isSelected={values.agreed} onChange={(agreed) => setValue('agreed', agreed)}>
          I have read and agree to the Porchlight terms of use summarised above
        </Checkbox>
        <FormActions>
          <Link to="/signin" variant="button-secondary">
            Already have an account?
          </Link>
          <Button
            type="submit"
            variant="primary"
            isDisabled={passwordsDiffer || !values.agreed}
            isPending={signup.isPending}
          >
            Sign Up
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
