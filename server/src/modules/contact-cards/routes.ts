import { ProspectExportQuery } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { attachment } from '../../http/download.ts'
import { PositiveId, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const tags = ['prospects']

export const contactCardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { contactCards } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }
  const vcf = (fileName: string) => ({
    'content-type': 'text/vcard; charset=utf-8',
    'content-disposition': attachment(fileName, 'contact'),
    'cache-control': 'no-store',
  })

  app.get(
    '/prospectmgmt/getProspectVCard/:prospectId',
    { schema: { tags, security, params: z.object({ prospectId: PositiveId }) }, ...guard },
    async (req, reply) => {
      const { fileName, body } = await contactCards.one(agentOf(req), req.params.prospectId)
      return reply.headers(vcf(fileName)).send(body)
    },
  )

  // The list as filtered on screen (the CSV export's filters), as one .vcf of many cards.
  app.get(
    '/prospectmgmt/exportVCards/:agentId',
    {
      schema: { tags, security, params: z.object({ agentId: PositiveId }), querystring: ProspectExportQuery },
      preHandler: [app.requireLicensedAgent, requireSelf('agentId', 'You can only see your own prospects')],
    },
    async (req, reply) => {
      const { fileName, body } = await contactCards.list(agentOf(req), req.query)
      return reply.headers(vcf(fileName)).send(body)
    },
  )
}
