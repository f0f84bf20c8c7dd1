import { messages, type PlanUtilization } from '@porchlight/shared'
import { DisabledLink } from '../../ui/DisabledLink.tsx'
import { HrefLink } from '../../ui/Link.tsx'
import './dashboard.css'

interface ActionBarProps {
  /** The sub-layout's own path: SPEC's 'property' is relative to it. */
  basePath: string
  utilization: PlanUtilization
}

/**
 * SPEC §2 dashboard action bar. Schedule Open House stays visible but disabled, with its reason,
 * once the plan's open houses are used up (SPEC §5 plan limits).
 */
export function ActionBar({ basePath, utilization }: ActionBarProps) {
  const { pricePlan, pricingPlanUtilization } = utilization
  const limitReached = pricingPlanUtilization.totalCreatedOpenHouses >= pricePlan.numberOfOpenHousesCreate
  return (
    <nav className="action-bar" aria-label="Actions">
      {limitReached ? (
        <DisabledLink variant="button-primary" reason={messages.upgradePlanToCreateOpenHouses}>
          Schedule Open House
        </DisabledLink>
      ) : (
        <HrefLink href={`${basePath}/property`} variant="button-primary">
          Schedule Open House
        </HrefLink>
      )}
      <HrefLink href="/prospects" variant="button-secondary">
        Manage Prospects
      </HrefLink>
    </nav>
  )
}
