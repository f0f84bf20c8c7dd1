import { ProspectAnswersSchema } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'

export const customQuestionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { customQuestions } = app.deps

  // The prospect detail's answers to the open houses' own questions, per visit (issue 14).
  app.get(
    '/prospectmgmt/getProspectCustomAnswers/:prospectId',
    {
      schema: {
        tags: ['prospects'],
        security: [{ bearer: [] }],
        params: z.object({ prospectId: z.coerce.number().int().positive() }),
        response: { 200: z.object({ data: z.array(ProspectAnswersSchema) }) },
      },
      preHandler: app.requireLicensedAgent,
    },
    async (req) => ({ data: await customQuestions.ofProspect(agentOf(req), req.params.prospectId) }),
  )
}
