import { Feedback, FeedbackSummary, messages, SaveFeedbackBody } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { data, PositiveId, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const tags = ['feedback']

export const feedbackRoutes: FastifyPluginAsyncZod = async (app) => {
  const { feedback } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }

  // Public: a visitor who signed in at the open house (its prospect id comes from the confirm page).
  app.post(
    '/public/saveOpenHouseFeedback',
    {
      schema: { tags: ['public'], body: SaveFeedbackBody, response: { 201: data(Feedback) } },
      config: { rateLimit: { max: app.deps.config.rateLimit.guestPerMinute, timeWindow: 60_000 } },
    },
    async (req, reply) => reply.status(201).send({ data: await feedback.submit(req.body) }),
  )

  app.patch(
    '/feedback/saveOpenHouseFeedback/:id',
    {
      schema: {
        tags: ['public'],
        params: z.object({ id: PositiveId }),
        body: SaveFeedbackBody,
        response: { 200: data(Feedback) },
      },
      config: { rateLimit: { max: app.deps.config.rateLimit.guestPerMinute, timeWindow: 60_000 } },
    },
    async (req) => ({ data: await feedback.edit(req.params.id, req.body) }),
  )

  app.get(
    '/feedback/getOpenHouseFeedbackSummaryByOpenHouseId/:id',
    {
      schema: {
        tags,
        security,
        params: z.object({ id: PositiveId }),
        response: { 200: data(FeedbackSummary) },
      },
      ...guard,
    },
    async (req) => ({ data: await feedback.openHouseSummary(agentOf(req), req.params.id) }),
  )

  app.get(
    '/feedback/getREAgentFeedbackSummaryByREAgentId/:agentId',
    {
      schema: {
        tags,
        security,
        params: z.object({ agentId: PositiveId }),
        response: { 200: data(FeedbackSummary) },
      },
      preHandler: [app.requireLicensedAgent, requireSelf('agentId', messages.feedbackSummaryLoadFailed)],
    },
    async (req) => ({ data: await feedback.agentSummary(agentOf(req)) }),
  )
}
