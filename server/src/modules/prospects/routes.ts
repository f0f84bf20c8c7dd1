import {
  AddProspectNoteBody,
  GuestSignInBody,
  OpenHouseProspect,
  OwnProspectListQuery,
  Prospect,
  ProspectExportQuery,
  ProspectListQuery,
  ProspectNote,
  ProspectOpenHouseOption,
  ProspectPage,
  SaveProspectBody,
  UpdateProspectFollowUpBody,
} from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { attachment } from '../../http/download.ts'
import { AgentParams, data, IdParams, PositiveId, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const ProspectParams = z.object({ prospectId: PositiveId })
const Paging = ProspectListQuery.pick({ limit: true, offset: true })
const tags = ['prospects']

export const prospectRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prospects } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }
  const ownGuard = {
    preHandler: [app.requireLicensedAgent, requireSelf('agentId', 'You can only see your own prospects')],
  }

  // Guests sign in from the QR code without a token; a phone on a weak signal may retry (clientRequestId).
  // The answer's id is the visit's, never the agent's prospect's; the token opens that visit only (029).
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
        querystring: OwnProspectListQuery,
        // A page and, beside `data`, how many match in all.
        response: { 200: ProspectPage },
      },
      ...ownGuard,
    },
    async (req) => prospects.listOwn(agentOf(req), req.query),
  )

  app.get(
    '/prospectmgmt/getProspectOpenHouses/:agentId',
    {
      schema: {
        tags,
        security,
        params: AgentParams,
        response: { 200: data(z.array(ProspectOpenHouseOption)) },
      },
      ...ownGuard,
    },
    async (req) => ({ data: await prospects.openHouseOptions(agentOf(req)) }),
  )

  app.patch(
    '/prospectmgmt/updateProspectFollowUp/:prospectId',
    {
      schema: {
        tags,
        security,
        params: ProspectParams,
        body: UpdateProspectFollowUpBody,
        response: { 200: data(Prospect) },
      },
      ...guard,
    },
    async (req) => ({
      data: await prospects.updateFollowUp(agentOf(req), req.params.prospectId, req.body),
    }),
  )

  app.get(
    '/prospectmgmt/getProspectNotes/:prospectId',
    {
      schema: { tags, security, params: ProspectParams, response: { 200: data(z.array(ProspectNote)) } },
      ...guard,
    },
    async (req) => ({ data: await prospects.notes(agentOf(req), req.params.prospectId) }),
  )

  app.post(
    '/prospectmgmt/addProspectNote/:prospectId',
    {
      schema: {
        tags,
        security,
        params: ProspectParams,
        body: AddProspectNoteBody,
        response: { 201: data(ProspectNote) },
      },
      ...guard,
    },
    async (req, reply) =>
      reply
        .status(201)
        .send({ data: await prospects.addNote(agentOf(req), req.params.prospectId, req.body) }),
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
      ...ownGuard,
    },
    async (req) => ({ data: await prospects.listOwnNotIn(agentOf(req), req.params.openHouseId, req.query) }),
  )

  app.get(
    '/prospectmgmt/getProspectDetails/:id',
    { schema: { tags, security, params: IdParams, response: { 200: data(Prospect) } }, ...guard },
    async (req) => ({ data: await prospects.details(agentOf(req), req.params.id) }),
  )

  app.get(
    '/prospectmgmt/export/:agentId.csv',
    { schema: { tags, security, params: AgentParams, querystring: ProspectExportQuery }, ...ownGuard },
    async (req, reply) => {
      const { fileName, csv } = await prospects.exportCsv(agentOf(req), req.query)
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(fileName))
        .header('cache-control', 'no-store')
        .send(csv)
    },
  )
}
