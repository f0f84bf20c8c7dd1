import { type AddPlanBody, PlanPurchase, PlanUtilization, PricingPlan } from '@porchlight/shared'
import { queryOptions, useMutation } from '@tanstack/react-query'
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

const ActivePlan = z.object({ purchase: PlanPurchase, plan: PricingPlan }).nullable()
export type ActivePlan = z.infer<typeof ActivePlan>

/** The agent's plan in force and its purchase, or null; 403 LICENSE_INVALID without a valid license. */
export function activePlanQueryOptions(reAgentId: number) {
  return queryOptions({
    queryKey: ['activePlan', reAgentId],
    queryFn: ({ signal }) =>
      apiRequest(`/pricingplanmgmt/getActivePricingPlan/${reAgentId}`, { schema: ActivePlan, signal }),
  })
}

/** SPEC §3 plan utilisation: the plan's limits and what the agent used of them. */
export function planUtilizationQueryOptions(reAgentId: number) {
  return queryOptions({
    queryKey: ['planUtilization', reAgentId],
    queryFn: ({ signal }) =>
      apiRequest(`/pricingplanmgmt/getPlanUtilization/${reAgentId}`, { schema: PlanUtilization, signal }),
  })
}

/** Adds a plan, or changes the one in force when `purchaseId` is given (API.md POST/PATCH). */
export function useChoosePlanMutation() {
  return useMutation({
    mutationFn: ({ purchaseId, ...body }: z.output<typeof AddPlanBody> & { purchaseId?: number }) =>
      apiRequest(
        purchaseId
          ? `/pricingplanmgmt/addPricingPlanToREAgent/${purchaseId}`
          : '/pricingplanmgmt/addPricingPlanToREAgent',
        { method: purchaseId ? 'PATCH' : 'POST', body, schema: PlanPurchase },
      ),
  })
}
