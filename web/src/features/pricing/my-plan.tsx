import { formatPrice, type PlanUtilization, UNLIMITED } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { formatDate } from '../../ui/format.ts'
import { Link } from '../../ui/Link.tsx'
import { type ActivePlan, activePlanQueryOptions, planUtilizationQueryOptions } from './queries.ts'
import './my-plan.css'

/** The 'My Pricing Plan' tab: the plan in force, its dates and frequency, and what is used of it. */
export function MyPlan({ reAgentId }: { reAgentId: number }) {
  const { data: active } = useSuspenseQuery(activePlanQueryOptions(reAgentId))
  if (!active) {
    return (
      <div className="empty-state my-plan__empty">
        <p>You have no active pricing plan. Choose one to schedule open houses and build your team.</p>
        <Link to="/pricingplans" search={{ reAgentId }} variant="button-primary">
          Select Pricing Plan
        </Link>
      </div>
    )
  }
  return <ActivePlanDetails reAgentId={reAgentId} active={active} />
}

function ActivePlanDetails({ reAgentId, active }: { reAgentId: number; active: NonNullable<ActivePlan> }) {
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(reAgentId))
  const { plan, purchase } = active
  const yearly = purchase.pricingPlanFrequency === 'Yearly'
  const price = formatPrice(purchase.totalReceivable, plan.pricingPlanCurrency)

  return (
    <div className="my-plan">
      <div className="my-plan__header">
        <div>
          <h2 className="my-plan__title">{plan.pricingPlanTitle}</h2>
          <p className="my-plan__price">
            {price}
            {purchase.totalReceivable > 0 && (yearly ? ' per year' : ' per month')}
          </p>
        </div>
        <Link to="/pricingplans" search={{ reAgentId }} variant="button-secondary">
          Change Pricing Plan
        </Link>
      </div>
      <dl className="details">
        <div className="details__item">
          <dt>Frequency</dt>
          <dd>{purchase.pricingPlanFrequency}</dd>
        </div>
        <div className="details__item">
          <dt>Start Date</dt>
          <dd>{formatDate(purchase.pricingPlanStartDate)}</dd>
        </div>
        {/* A free plan does not run out and there is nothing to renew: no end date, no Auto Renew. */}
        {purchase.totalReceivable > 0 && (
          <>
            <div className="details__item">
              <dt>End Date</dt>
              <dd>{formatDate(purchase.pricingPlanEndDate)}</dd>
            </div>
            <div className="details__item">
              <dt>Auto Renew</dt>
              <dd>{purchase.autoRenew ? 'Yes' : 'No'}</dd>
            </div>
          </>
        )}
      </dl>
      <Utilization utilization={utilization} />
    </div>
  )
}

function Utilization({ utilization }: { utilization: PlanUtilization }) {
  const { pricePlan, pricingPlanUtilization: used } = utilization
  const rows = [
    {
      label: 'Open houses created',
      used: used.totalCreatedOpenHouses,
      limit: pricePlan.numberOfOpenHousesCreate,
    },
    {
      label: 'Publish requests',
      used: used.totalPublishedOpenHouses,
      limit: pricePlan.numberOfOpenHousesPublish,
    },
    { label: 'Teams created', used: used.totalCreatedTeams, limit: pricePlan.numberOfTeamsCreate },
  ]
  return (
    <section className="my-plan__usage" aria-labelledby="plan-usage-title">
      <h3 id="plan-usage-title">Plan utilisation</h3>
      <ul className="usage">
        {rows.map((row) => (
          <li key={row.label} className="usage__row">
            <span className="usage__label">{row.label}</span>
            <span className="usage__value">{usageText(row.used, row.limit)}</span>
            <span className="usage__bar" aria-hidden="true">
              <span
                className="usage__fill"
                data-full={row.limit < UNLIMITED && row.used >= row.limit ? '' : undefined}
                style={{ width: `${usagePercent(row.used, row.limit)}%` }}
              />
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}

function usageText(used: number, limit: number): string {
  if (limit >= UNLIMITED) return `${used} used of Unlimited`
  if (limit === 0) return 'N/A'
  return `${used} of ${limit} used`
}

function usagePercent(used: number, limit: number): number {
  if (limit >= UNLIMITED || limit <= 0) return 0
  return Math.min(100, Math.round((used / limit) * 100))
}
