import { Alert } from '../../ui/Alert.tsx'
import { FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'

/** SPEC /forgotPassword/confirm: never says whether the account exists (API.md). */
export function ForgotPasswordConfirmPage() {
  return (
    <FormPage title="Check your email">
      <Alert
        tone="success"
        title="If an account exists for this email Id, a new temporary password will be emailed to it."
      >
        Sign in with the temporary password from that email; you will then choose a new password.
      </Alert>
      <FormActions>
        <Link to="/signin" variant="button-primary">
          Sign In
        </Link>
      </FormActions>
    </FormPage>
  )
}
