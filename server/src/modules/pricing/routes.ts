import { PricingPlanList } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

export const pricingRoutes: FastifyPluginAsyncZod = async (app) => {
  // Public: someone choosing a plan may have no agent profile yet (reAgentId 0).
  app.get(
    '/pricingplanmgmt/getAllOfferedPricingPlans/:reAgentId',
    {
      schema: {
        tags: ['pricing'],
        params: z.object({ reAgentId: z.coerce.number().int().min(0) }),
        response: { 200: PricingPlanList },
      },
    },
    async () => ({ data: await app.deps.pricing.listOfferedPlans() }),
  )
}
