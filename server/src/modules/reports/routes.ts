import { messages } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { IdParams, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const Queued = z.object({ data: z.object({ queued: z.literal(true), message: z.string() }) })
const tags = ['reports']

/** Reports are mailed in the background: each call answers 202 once the mail is safely queued. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reports } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }

  app.post(
    '/openhousemgmt/sendOpenHouseHostingReport/:id',
    { schema: { tags, security, params: IdParams, response: { 202: Queued } }, ...guard },
    async (req, reply) => {
      await reports.sendHostingReport(agentOf(req), req.params.id)
      return reply.status(202).send({ data: { queued: true as const, message: messages.hostingReportSent } })
    },
  )

  app.post(
    '/openhousemgmt/requestOpenHouseHostingReport/:id',
    { schema: { tags, security, params: IdParams, response: { 202: Queued } }, ...guard },
    async (req, reply) => {
      await reports.requestHostingReport(agentOf(req), req.params.id)
      return reply
        .status(202)
        .send({ data: { queued: true as const, message: messages.hostingReportRequested } })
    },
  )

  app.post(
    '/openhousemgmt/sendOpenHouseAttendeeReport/:openHouseId/:hostId',
    {
      schema: {
        tags,
        security,
        params: z.object({
          openHouseId: z.coerce.number().int().positive(),
          hostId: z.coerce.number().int().positive(),
        }),
        response: { 202: Queued },
      },
      preHandler: [
        app.requireLicensedAgent,
        requireSelf('hostId', 'The attendee report goes to the hosting agent'),
      ],
    },
    async (req, reply) => {
      await reports.sendAttendeeReport(agentOf(req), req.params.openHouseId)
      return reply.status(202).send({ data: { queued: true as const, message: messages.attendeeReportSent } })
    },
  )
}
