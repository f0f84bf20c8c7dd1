import { performance } from 'node:perf_hooks'
import {
  CancelOpenHouseBody,
  EditVersionHeaders,
  OpenHouseDetails,
  PublicOpenHouse,
  PublishLevel,
  SaveOpenHouseBody,
  UpdateScheduleBody,
} from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { attachment } from '../../http/download.ts'
import { AgentParams, data, IdParams, Paging, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

/** Claim and withdraw name the open house and the agent acting (API.md: it must be the caller). */
const OpenHouseAgentParams = AgentParams.extend({ openHouseId: z.coerce.number().int().positive() })
const tags = ['open houses']

export const openHouseRoutes: FastifyPluginAsyncZod = async (app) => {
  const { openHouses } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }
  const one = { 200: data(OpenHouseDetails) }
  const ownList = {
    preHandler: [app.requireLicensedAgent, requireSelf('agentId', 'You can only list your own open houses')],
  }

  app.post(
    '/openhousemgmt/saveOpenHouse',
    {
      schema: { tags, security, body: SaveOpenHouseBody, response: { 201: data(OpenHouseDetails) } },
      ...guard,
    },
    async (req, reply) => reply.status(201).send({ data: await openHouses.create(agentOf(req), req.body) }),
  )

  app.patch(
    '/openhousemgmt/saveOpenHouse/:id',
    {
      schema: {
        tags,
        security,
        params: IdParams,
        headers: EditVersionHeaders,
        body: SaveOpenHouseBody,
        response: one,
      },
      ...guard,
    },
    async (req) => ({
      data: await openHouses.update(agentOf(req), req.params.id, req.body, req.headers['if-match']),
    }),
  )

  app.patch(
    '/openhousemgmt/updateOpenHouseSchedule/:id',
    { schema: { tags, security, params: IdParams, body: UpdateScheduleBody, response: one }, ...guard },
    async (req) => ({ data: await openHouses.claimWithSchedule(agentOf(req), req.params.id, req.body) }),
  )

  app.post(
    '/openhousemgmt/cancelOpenHouse',
    { schema: { tags, security, body: CancelOpenHouseBody, response: one }, ...guard },
    async (req) => ({ data: await openHouses.cancel(agentOf(req), req.body) }),
  )

  app.get(
    '/openhousemgmt/getOpenHouseDetails/:id',
    { schema: { tags, security, params: IdParams, response: one }, ...guard },
    async (req) => ({ data: await openHouses.details(agentOf(req), req.params.id) }),
  )

  app.get(
    '/public/getOpenHouseDetails/:id',
    { schema: { tags: ['public'], params: IdParams, response: { 200: data(PublicOpenHouse) } } },
    async (req) => ({ data: await openHouses.publicDetails(req.params.id) }),
  )

  for (const [path, list] of [
    ['getMyUpcomingOH', 'upcoming'],
    ['getMyPastOH', 'past'],
  ] as const) {
    app.get(
      `/openhousemgmt/${path}/:agentId`,
      {
        schema: {
          tags,
          security,
          params: AgentParams,
          querystring: Paging,
          response: { 200: data(z.array(OpenHouseDetails)) },
        },
        ...ownList,
      },
      async (req) => ({ data: await openHouses[list](agentOf(req), req.query.limit, req.query.offset) }),
    )
  }

  app.get(
    '/openhousemgmt/getAvailableToHostOH/:agentId',
    {
      schema: {
        tags,
        security,
        params: AgentParams,
        querystring: Paging,
        response: { 200: data(z.array(OpenHouseDetails)) },
      },
      ...ownList,
    },
    async (req) => ({
      data: await openHouses.availableToHost(agentOf(req), req.query.limit, req.query.offset),
    }),
  )

  app.post(
    '/openhousemgmt/cloneOpenHouse/:id',
    { schema: { tags, security, params: IdParams, response: { 201: data(OpenHouseDetails) } }, ...guard },
    async (req, reply) =>
      reply.status(201).send({ data: await openHouses.clone(agentOf(req), req.params.id) }),
  )

  // Issue 32: the same open house, same times, on the property's next free day (a Saturday's Sunday).
  app.post(
    '/openhousemgmt/addAnotherDay/:id',
    { schema: { tags, security, params: IdParams, response: { 201: data(OpenHouseDetails) } }, ...guard },
    async (req, reply) =>
      reply.status(201).send({ data: await openHouses.anotherDay(agentOf(req), req.params.id) }),
  )

  app.patch(
    '/openhousemgmt/claimToHostOpenHouse/:openHouseId/:agentId',
    {
      schema: {
        tags,
        security,
        params: OpenHouseAgentParams,
        response: one,
      },
      preHandler: [app.requireLicensedAgent, requireSelf('agentId', 'You can only claim for yourself')],
    },
    // The request's arrival: Fastify's start of the reply.
    async (req, reply) => ({
      data: await openHouses.claim(
        agentOf(req),
        req.params.openHouseId,
        performance.now() - reply.elapsedTime,
      ),
    }),
  )

  app.delete(
    '/openhousemgmt/withdrawToHostOpenHouse/:openHouseId/:agentId',
    {
      schema: {
        tags,
        security,
        params: OpenHouseAgentParams,
        response: one,
      },
      preHandler: [app.requireLicensedAgent, requireSelf('agentId', 'You can only withdraw yourself')],
    },
    async (req) => ({ data: await openHouses.withdraw(agentOf(req), req.params.openHouseId) }),
  )

  app.post(
    '/openhousemgmt/publishOpenHouseOpportunity/:openHouseId/:listingAgentId/:publishLevel',
    {
      schema: {
        tags,
        security,
        params: z.object({
          openHouseId: z.coerce.number().int().positive(),
          listingAgentId: z.coerce.number().int().positive(),
          publishLevel: PublishLevel,
        }),
        response: one,
      },
      ...guard,
    },
    async (req) => ({
      data: await openHouses.publish(
        agentOf(req),
        req.params.openHouseId,
        req.params.listingAgentId,
        req.params.publishLevel,
      ),
    }),
  )

  // "Add to calendar" for the host and the listing agent.
  app.get(
    '/openhousemgmt/calendar/:id',
    { schema: { tags, security, params: IdParams }, ...guard },
    async (req, reply) => {
      const { fileName, body } = await openHouses.forCalendar(agentOf(req), req.params.id)
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', attachment(fileName))
        .send(body)
    },
  )
}
