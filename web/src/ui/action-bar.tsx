import { messages, type PlanUtilization } from '@porchlight/shared'
import { DisabledLink } from './DisabledLink.tsx'
import { HrefLink, Link } from './Link.tsx'
import './action-bar.css'

interface ActionBarProps {
  /** SPEC's relative route "property" under the sub-layout showing the bar. */
  to: '/dashboard/property' | '/openhouses/property'
  utilization: PlanUtilization
}

/** SPEC §5 plan limit: open houses may be created only while fewer than the plan allows exist. */
export function openHouseLimitReached({ pricePlan, pricingPlanUtilization }: PlanUtilization): boolean {
  return pricingPlanUtilization.totalCreatedOpenHouses >= pricePlan.numberOfOpenHousesCreate
}

/**
 * SPEC §2 dashboard action bar. Schedule Open House stays visible but disabled, with its reason,
 * once the plan's open houses are used up (SPEC §5 plan limits).
 */
export function ActionBar({ to, utilization }: ActionBarProps) {
  return (
    <nav className="action-bar" aria-label="Actions">
      {openHouseLimitReached(utilization) ? (
        <DisabledLink variant="button-primary" reason={messages.upgradePlanToCreateOpenHouses}>
          Schedule Open House
        </DisabledLink>
      ) : (
        <Link to={to} variant="button-primary">
          Schedule Open House
        </Link>
      )}
      <HrefLink href="/prospects" variant="button-secondary">
        Manage Prospects
      </HrefLink>
    </nav>
  )
}
