import { messages } from '@porchlight/shared'
import { getRouteApi } from '@tanstack/react-router'
import { Alert } from '../../ui/Alert.tsx'
import { FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'

const routeApi = getRouteApi('/signinsuccess')

/** SPEC /signinsuccess: signed in (or validated), but no agent profile yet. */
export function SigninSuccessPage() {
  const { porchlightUserId, source } = routeApi.useSearch()
  const title = source === 'signin' ? messages.signedInSuccessfully : messages.emailIdValidatedSuccessfully
  return (
    <FormPage title={title}>
      <Alert tone="info" title="Your real estate agent profile is not created yet.">
        Create it now to schedule open houses, meet leads and choose a pricing plan.
      </Alert>
      <FormActions>
        <Link to="/" variant="button-secondary">
          Cancel
        </Link>
        <Link to="/new" search={{ porchlightUserId }} variant="button-primary">
          Create Real Estate Agent Profile
        </Link>
      </FormActions>
    </FormPage>
  )
}
