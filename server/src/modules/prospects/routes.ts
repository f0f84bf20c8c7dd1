import {
  GuestSignInBody,
  OpenHouseProspect,
  Prospect,
  ProspectListQuery,
  SaveProspectBody,
} from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'

const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema })
const PositiveId = z.coerce.number().int().positive()
const IdParams = z.object({ id: PositiveId })
const AgentParams = z.object({ agentId: PositiveId })
const Paging = ProspectListQuery.pick({ limit: true, offset: true })
const security = [{ bearer: [] }]
const tags = ['prospects']

export const prospectRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prospects } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }

  // Guests sign in from the QR code without a token; a phone on a weak signal may retry (clientRequestId).
  app.post(
    '/public/saveProspect',
    {
      schema: {
        tags: ['public'],
        body: GuestSignInBody,
        response: { 201: data(z.object({ id: z.number().int(), guestToken: z.string() })) },
      },
      config: { rateLimit: { max: app.deps.config.rateLimit.guestPerMinute, timeWindow: 60_000 } },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send({ data: await prospects.guestSignIn(req.body, { userAgent: req.headers['user-agent'] }) }),
  )

  app.post(
    '/prospectmgmt/saveProspect',
    { schema: { tags, security, body: SaveProspectBody, response: { 201: data(Prospect) } }, ...guard },
    async (req, reply) => reply.status(201).send({ data: await prospects.create(agentOf(req), req.body) }),
  )

  app.patch(
    '/prospectmgmt/saveProspect/:id',
    {
      schema: { tags, security, params: IdParams, body: SaveProspectBody, response: { 200: data(Prospect) } },
      ...guard,
    },
    async (req) => ({ data: await prospects.update(agentOf(req), req.params.id, req.body) }),
  )

  app.get(
    '/prospectmgmt/getProspectsByREAgentId/:agentId',
    {
      schema: {
        tags,
        security,
        params: AgentParams,
        querystring: ProspectListQuery,
        response: { 200: data(z.array(Prospect)) },
      },
      ...guard,
    },
    async (req) => ({ data: await prospects.listOwn(agentOf(req), req.params.agentId, req.query) }),
  )

  app.get(
    '/prospectmgmt/getProspectsByOpenHouseId/:id',
    {
      schema: {
        tags,
        security,
        params: IdParams,
        querystring: Paging,
        response: { 200: data(z.array(OpenHouseProspect)) },
      },
      ...guard,
    },
    async (req) => ({
      data: await prospects.listByOpenHouse(agentOf(req), req.params.id, req.query.limit, req.query.offset),
    }),
  )

  app.get(
    '/prospectmgmt/getProspectsByREAgentIdNotInOH/:agentId/:openHouseId',
    {
      schema: {
        tags,
        security,
        params: z.object({ agentId: PositiveId, openHouseId: PositiveId }),
        querystring: ProspectListQuery,
        response: { 200: data(z.array(Prospect)) },
      },
      ...guard,
    },
    async (req) => ({
      data: await prospects.listOwnNotIn(agentOf(req), req.params.agentId, req.params.openHouseId, req.query),
    }),
  )

  app.get(
    '/prospectmgmt/getProspectDetails/:id',
    { schema: { tags, security, params: IdParams, response: { 200: data(Prospect) } }, ...guard },
    async (req) => ({ data: await prospects.details(agentOf(req), req.params.id) }),
  )

  app.get(
    '/prospectmgmt/export/:agentId.csv',
    { schema: { tags, security, params: AgentParams }, ...guard },
    async (req, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="prospects-${req.params.agentId}.csv"`)
        .header('cache-control', 'no-store')
        .send(await prospects.exportCsv(agentOf(req), req.params.agentId)),
  )
}
