import { AddAttendeeBody, PublicAttendee } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { data, Paging } from '../../http/schemas.ts'

export const attendeeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { attendees } = app.deps

  // The guest landing page's attendee list: first names and last initials, newest first.
  app.get(
    '/public/getOpenHouseAttendees/:openHouseId',
    {
      schema: {
        tags: ['public'],
        params: z.object({ openHouseId: z.coerce.number().int().positive() }),
        querystring: Paging,
        response: { 200: data(z.array(PublicAttendee)) },
      },
    },
    async (req) => ({
      data: await attendees.publicList(req.params.openHouseId, req.query.limit, req.query.offset),
    }),
  )

  app.post(
    '/openhousemgmt/AddAttendee',
    {
      schema: {
        tags: ['open houses'],
        security: [{ bearer: [] }],
        body: AddAttendeeBody,
        response: { 201: data(z.object({ id: z.number().int() })) },
      },
      preHandler: app.requireLicensedAgent,
    },
    async (req, reply) => reply.status(201).send({ data: await attendees.add(agentOf(req), req.body) }),
  )
}
