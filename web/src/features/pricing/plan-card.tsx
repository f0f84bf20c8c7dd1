import {
  annualPrice,
  displayCount,
  displayPublishCount,
  formatPrice,
  type PlanView,
  type PricingPlan,
} from '@porchlight/shared'
import { Button } from '../../ui/Button.tsx'

interface PlanCardProps {
  plan: PricingPlan
  view: PlanView
  /** Without an agent profile and a session the plan cannot be chosen here yet. */
  canChoose: boolean
  /** The agent's plan in force at this billing period: shown, not offered again. */
  isCurrent?: boolean
  /** While the agent's current plan is still loading the choice waits. */
  isChoiceDisabled?: boolean
  onChoose?: (plan: PricingPlan) => void
}

function priceParts(plan: PricingPlan, view: PlanView) {
  const amount =
    view === 'annual'
      ? annualPrice(plan.pricingPlanPriceMonthly, plan.pricingPlanPriceAnnualDiscPerc)
      : plan.pricingPlanPriceMonthly
  const free = amount === 0
  const discount = plan.pricingPlanPriceAnnualDiscPerc
  let billing = 'Billed monthly'
  if (free) billing = 'No card needed'
  else if (view === 'annual') billing = discount > 0 ? `Billed yearly · save ${discount}%` : 'Billed yearly'
  return {
    amount: formatPrice(amount, plan.pricingPlanCurrency),
    period: free ? '' : view === 'annual' ? '/year' : '/month',
    billing,
    free,
  }
}

export function PlanCard({ plan, view, canChoose, isCurrent, isChoiceDisabled, onChoose }: PlanCardProps) {
  const titleId = `plan-${plan.id}-title`
  const hintId = `plan-${plan.id}-hint`
  const { amount, period, billing, free } = priceParts(plan, view)
  const features = [
    plan.pricingPlanFeature1,
    plan.pricingPlanFeature2,
    plan.pricingPlanFeature3,
    plan.pricingPlanFeature4,
    plan.pricingPlanFeature5,
    plan.pricingPlanFeature6,
  ].filter((feature): feature is string => Boolean(feature?.trim()))

  // SPEC §9 shows the yearly create and publish counts divided by 12 in the annual view: say so, or
  // "20" reads as the whole year's allowance.
  const perMonth = (value: string) =>
    view === 'annual' && /^\d+$/.test(value) ? `${value} per month` : value
  const limits = [
    {
      key: 'create',
      label: 'Open houses created',
      value: perMonth(displayCount(plan.numberOfOpenHousesCreate, view, true)),
    },
    {
      key: 'publish',
      label: 'Publish requests',
      value: perMonth(displayPublishCount(plan.numberOfOpenHousesPublish, view)),
    },
    {
      key: 'host',
      label: 'Open houses hosted',
      value: displayCount(plan.numberOfOpenHousesHost, view, false),
    },
    { key: 'teams', label: 'Teams', value: displayCount(plan.numberOfTeamsCreate, view, false) },
    {
      key: 'team-size',
      label: 'Team size',
      value: displayCount(plan.numberOfTeamMembersPerTeam, view, false),
    },
    { key: 'leads', label: 'Leads managed', value: displayCount(plan.numberOfProspectsManage, view, false) },
  ]

  return (
    <article className="card plan-card" aria-labelledby={titleId} data-plan-id={plan.id}>
      <h2 id={titleId} className="plan-card__title">
        {plan.pricingPlanTitle}
      </h2>
      <p className="plan-card__price" data-testid="plan-price">
        <span className="plan-card__amount">{amount}</span>
        {period && <span className="plan-card__period">{period}</span>}
      </p>
      <p className="plan-card__billing">{billing}</p>

      {features.length > 0 && (
        <ul className="plan-card__features" aria-label="Features">
          {features.map((feature) => (
            <li key={feature}>
              <svg className="plan-card__check" viewBox="0 0 20 20" aria-hidden="true">
                <path d="m5 10.5 3 3 7-7" />
              </svg>
              {feature}
            </li>
          ))}
        </ul>
      )}

      <dl className="plan-card__limits" aria-label="Limits">
        {limits.map((limit) => (
          <div key={limit.key} className="plan-card__limit">
            <dt>{limit.label}</dt>
            <dd data-testid={`plan-limit-${limit.key}`}>{limit.value}</dd>
          </div>
        ))}
      </dl>
      {view === 'annual' && !free && <p className="plan-card__note">Monthly figures, billed yearly</p>}

      {canChoose && (
        <div className="plan-card__footer">
          <Button
            variant={isCurrent ? 'secondary' : 'primary'}
            isDisabled={isCurrent || isChoiceDisabled}
            className="plan-card__choose"
            aria-label={isCurrent ? undefined : `Choose plan ${plan.pricingPlanTitle}`}
            onPress={() => onChoose?.(plan)}
          >
            {isCurrent ? 'Current plan' : 'Choose plan'}
          </Button>
        </div>
      )}
      {!canChoose && (
        <div className="plan-card__footer">
          <Button variant="secondary" isDisabled aria-describedby={hintId} className="plan-card__choose">
            Choose plan
          </Button>
          <p id={hintId} className="plan-card__hint">
            Sign in to choose a plan
          </p>
        </div>
      )}
    </article>
  )
}
