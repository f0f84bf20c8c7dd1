import { messages } from '@porchlight/shared'
import { Alert } from '../../ui/Alert.tsx'
import { FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'

/** SPEC /mystuff/changeUserPass/confirmPassChange. */
export function ChangePasswordConfirmPage() {
  return (
    <FormPage title="User Password Change">
      <Alert tone="success" title={messages.passwordChangedSuccessfully} />
      <FormActions>
        <Link to="/mystuff" variant="button-primary">
          My Profile
        </Link>
      </FormActions>
    </FormPage>
  )
}
