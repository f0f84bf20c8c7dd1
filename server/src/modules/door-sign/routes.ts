import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { attachment } from '../../http/download.ts'
import { security } from '../../http/schemas.ts'

const OpenHouseParams = z.object({ openHouseId: z.coerce.number().int().positive() })
const tags = ['open houses']

/** The door sign as a PDF (one Letter page) for the listing agent, its scheduler and the host. */
export const doorSignRoutes: FastifyPluginAsyncZod = async (app) => {
  const { doorSigns } = app.deps

  app.get(
    '/openhousemgmt/getDoorSignPdf/:openHouseId',
    { schema: { tags, security, params: OpenHouseParams }, preHandler: app.requireLicensedAgent },
    async (req, reply) => {
      const { fileName, pdf } = await doorSigns.pdf(agentOf(req), req.params.openHouseId)
      return reply.type('application/pdf').header('content-disposition', attachment(fileName)).send(pdf)
    },
  )
}
