import { type PlanView, type PricingPlan, planOfferedTo } from '@porchlight/shared'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useState } from 'react'
import { sessionQueryOptions } from '../session/queries.ts'
import { useSession } from '../session/use-session.ts'
import { BillingToggle } from './billing-toggle.tsx'
import { ChoosePlanDialog } from './choose-plan-dialog.tsx'
import { PlanCard } from './plan-card.tsx'
import { PricingLayout } from './pricing-layout.tsx'
import { activePlanQueryOptions, pricingPlansQueryOptions } from './queries.ts'

const routeApi = getRouteApi('/pricingplans')

export function PricingPage() {
  const { reAgentId } = routeApi.useLoaderDeps()
  const { data: allPlans } = useSuspenseQuery(pricingPlansQueryOptions(reAgentId))
  const { isSignedIn } = useSession()
  // A signed-in agent's role decides which plans are for it: the Team plan is not offered to a role
  // that cannot create teams (decision 039). Signed out, every plan shows.
  const session = useQuery({ ...sessionQueryOptions(), enabled: isSignedIn })
  const role = session.data?.agent?.reAgentRole
  const [view, setView] = useState<PlanView>('monthly')
  const [choosing, setChoosing] = useState<PricingPlan | null>(null)

  // API.md: choosing needs the session a user gets at email validation or sign-in.
  const canChoose = reAgentId > 0 && isSignedIn
  const active = useQuery({ ...activePlanQueryOptions(reAgentId), enabled: canChoose })
  const current = active.data ?? null
  const plans = allPlans.filter((plan) => !role || planOfferedTo(plan, role) || current?.plan.id === plan.id)
  const bestDiscount = Math.max(0, ...plans.map((plan) => plan.pricingPlanPriceAnnualDiscPerc))
  const frequency = view === 'annual' ? 'Yearly' : 'Monthly'

  return (
    <PricingLayout
      controls={
        <>
          <BillingToggle view={view} onChange={setView} />
          <p className="pricing__hint">
            {bestDiscount > 0 ? `Save up to ${bestDiscount}% with annual billing` : ' '}
          </p>
        </>
      }
    >
      {plans.length === 0 ? (
        <p className="empty-state">No pricing plans are offered right now. Please check back soon.</p>
      ) : (
        <ul className="pricing__grid">
          {plans.map((plan) => (
            <li key={plan.id}>
              <PlanCard
                plan={plan}
                view={view}
                canChoose={canChoose}
                isCurrent={
                  current?.plan.id === plan.id && current.purchase.pricingPlanFrequency === frequency
                }
                isChoiceDisabled={active.isLoading}
                onChoose={setChoosing}
              />
            </li>
          ))}
        </ul>
      )}
      {canChoose && (
        <ChoosePlanDialog
          plan={choosing}
          view={view}
          reAgentId={reAgentId}
          purchaseId={current?.purchase.id}
          onClose={() => setChoosing(null)}
        />
      )}
    </PricingLayout>
  )
}
