import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { readToken } from '../api/storage.ts'
import { PricingError } from '../features/pricing/pricing-error.tsx'
import { PricingPage } from '../features/pricing/pricing-page.tsx'
import { PricingPending } from '../features/pricing/pricing-pending.tsx'
import { activePlanQueryOptions, pricingPlansQueryOptions } from '../features/pricing/queries.ts'

const PricingSearch = z.object({
  // A bad value is dropped rather than failing the page: the plans still show.
  reAgentId: z.coerce.number().int().positive().optional().catch(undefined),
})

export const Route = createFileRoute('/pricingplans')({
  validateSearch: PricingSearch,
  loaderDeps: ({ search }) => ({ reAgentId: search.reAgentId ?? 0 }),
  loader: ({ context, deps }) => {
    // A signed-in agent choosing again replaces the plan in force: learn which one, without waiting.
    if (deps.reAgentId > 0 && readToken()) {
      void context.queryClient.prefetchQuery(activePlanQueryOptions(deps.reAgentId))
    }
    return context.queryClient.ensureQueryData(pricingPlansQueryOptions(deps.reAgentId))
  },
  component: PricingPage,
  pendingComponent: PricingPending,
  errorComponent: PricingError,
  pendingMs: 150,
  pendingMinMs: 300,
})
