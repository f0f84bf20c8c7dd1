import { AddPlanBody, PlanPurchase, PlanUtilization, PricingPlan, PricingPlanList } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { data, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const AgentIdParams = z.object({ reAgentId: z.coerce.number().int().positive() })

export const pricingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { pricing } = app.deps
  const ownPlan = {
    preHandler: [app.requireLicensedAgent, requireSelf('reAgentId', 'You can only see your own plan')],
  }

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
    async () => ({ data: await pricing.listOfferedPlans() }),
  )

  app.post(
    '/pricingplanmgmt/addPricingPlanToREAgent',
    {
      schema: { tags: ['pricing'], security, body: AddPlanBody, response: { 201: data(PlanPurchase) } },
      preHandler: [
        app.requireAgent,
        requireSelf('reAgentId', 'You can only choose a plan for yourself', { in: 'body' }),
      ],
    },
    async (req, reply) => reply.status(201).send({ data: await pricing.addPlan(agentOf(req).id, req.body) }),
  )

  app.patch(
    '/pricingplanmgmt/addPricingPlanToREAgent/:id',
    {
      schema: {
        tags: ['pricing'],
        security,
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: AddPlanBody,
        response: { 200: data(PlanPurchase) },
      },
      preHandler: [
        app.requireAgent,
        requireSelf('reAgentId', 'You can only change your own plan', { in: 'body' }),
      ],
    },
    async (req) => ({ data: await pricing.changePlan(agentOf(req).id, req.params.id, req.body) }),
  )

  app.get(
    '/pricingplanmgmt/getPlanUtilization/:reAgentId',
    {
      schema: {
        tags: ['pricing'],
        security,
        params: AgentIdParams,
        response: { 200: data(PlanUtilization) },
      },
      ...ownPlan,
    },
    async (req) => ({ data: await pricing.requireUtilization(agentOf(req).id) }),
  )

  app.get(
    '/pricingplanmgmt/getActivePricingPlan/:reAgentId',
    {
      schema: {
        tags: ['pricing'],
        security,
        params: AgentIdParams,
        response: { 200: data(z.object({ purchase: PlanPurchase, plan: PricingPlan }).nullable()) },
      },
      ...ownPlan,
    },
    async (req) => ({ data: await pricing.activePlan(agentOf(req).id) }),
  )
}
