import { getRouteApi } from '@tanstack/react-router'
import { Alert } from '../../ui/Alert.tsx'
import { FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'

const routeApi = getRouteApi('/pricingplanexpired')

/** SPEC /pricingplanexpired: 'No Active Plan' and 'Select Pricing Plan'. */
export function PlanExpiredPage() {
  const { reAgentId } = routeApi.useSearch()
  return (
    <FormPage title="No Active Plan">
      <Alert tone="info" title="You have no active pricing plan.">
        Select a pricing plan to use your dashboard, schedule open houses and manage your teams. SOLO agents
        can always choose the free plan.
      </Alert>
      <FormActions>
        <Link to="/pricingplans" search={{ reAgentId }} variant="button-primary">
          Select Pricing Plan
        </Link>
      </FormActions>
    </FormPage>
  )
}
