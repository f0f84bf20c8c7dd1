import { ConsentEntry } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { readFormBodies } from '../../http/form-body.ts'
import { answerUnsubscribePage, unsubscribePage } from './page.ts'

const TokenParams = z.object({ token: z.string().min(16).max(100) })
const ProspectParams = z.object({ prospectId: z.coerce.number().int().positive() })
/** RFC 8058's body; the page's button adds `from=page`. */
export const OneClickBody = z.object({
  'List-Unsubscribe': z.literal('One-Click'),
  from: z.literal('page').optional(),
})

export const consentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { consent } = app.deps

  readFormBodies(app)

  // The visible link opens a page that asks to confirm: scanners that open links unsubscribe no one.
  app.get(
    '/public/unsubscribe/:token',
    { schema: { tags: ['public'], params: TokenParams } },
    async (req, reply) => {
      const known = await consent.tokenKnown(req.params.token)
      return answerUnsubscribePage(req, reply, known)
    },
  )

  app.post(
    '/public/unsubscribe/:token',
    { schema: { tags: ['public'], params: TokenParams, body: OneClickBody } },
    async (req, reply) => {
      const fromPage = req.body.from === 'page'
      await consent.optOut(req.params.token, fromPage ? 'unsubscribe_page' : 'one_click')
      reply.header('cache-control', 'no-store')
      if (fromPage) return reply.type('text/html; charset=utf-8').send(unsubscribePage('done'))
      return reply.status(200).send()
    },
  )

  app.get(
    '/prospectmgmt/getProspectConsents/:prospectId',
    {
      schema: {
        tags: ['prospects'],
        security: [{ bearer: [] }],
        params: ProspectParams,
        response: { 200: z.object({ data: z.array(ConsentEntry) }) },
      },
      preHandler: app.requireLicensedAgent,
    },
    async (req) => ({ data: await consent.history(agentOf(req), req.params.prospectId) }),
  )

  // The guest asked the agent (a call, a reply) to stop mail: recorded as the agent's, with the same effect.
  app.post(
    '/prospectmgmt/optOutProspectEmail/:prospectId',
    {
      schema: {
        tags: ['prospects'],
        security: [{ bearer: [] }],
        params: ProspectParams,
        response: { 200: z.object({ data: z.array(ConsentEntry) }) },
      },
      preHandler: app.requireLicensedAgent,
    },
    async (req) => ({ data: await consent.optOutByAgent(agentOf(req), req.params.prospectId) }),
  )
}
