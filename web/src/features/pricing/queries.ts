import { PricingPlan } from '@porchlight/shared'
import { queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'

/** The offered plans; reAgentId 0 lists them for someone with no agent profile yet (API.md). */
export function pricingPlansQueryOptions(reAgentId: number) {
  return queryOptions({
    queryKey: ['pricingPlans', reAgentId],
    queryFn: ({ signal }) =>
      apiRequest(`/pricingplanmgmt/getAllOfferedPricingPlans/${reAgentId}`, {
        schema: z.array(PricingPlan),
        signal,
        auth: false,
      }),
    staleTime: 5 * 60_000,
  })
}
