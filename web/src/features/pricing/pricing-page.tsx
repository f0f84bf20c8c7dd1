import type { PlanView } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useState } from 'react'
import { BillingToggle } from './billing-toggle.tsx'
import { PlanCard } from './plan-card.tsx'
import { PricingLayout } from './pricing-layout.tsx'
import { pricingPlansQueryOptions } from './queries.ts'

const routeApi = getRouteApi('/pricingplans')

export function PricingPage() {
  const { reAgentId } = routeApi.useLoaderDeps()
  const { data: plans } = useSuspenseQuery(pricingPlansQueryOptions(reAgentId))
  const [view, setView] = useState<PlanView>('monthly')
  const bestDiscount = Math.max(0, ...plans.map((plan) => plan.pricingPlanPriceAnnualDiscPerc))

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
              <PlanCard plan={plan} view={view} canChoose={reAgentId > 0} />
            </li>
          ))}
        </ul>
      )}
    </PricingLayout>
  )
}
