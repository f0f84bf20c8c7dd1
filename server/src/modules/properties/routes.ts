import { Property, PropertyBody } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { agentOf } from '../../http/auth.ts'
import { data, IdParams, security } from '../../http/schemas.ts'

export const propertyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { properties } = app.deps

  app.post(
    '/propertymgmt/saveREProperty',
    {
      schema: { tags: ['properties'], security, body: PropertyBody, response: { 201: data(Property) } },
      preHandler: app.requireLicensedAgent,
    },
    async (req, reply) =>
      reply.status(201).send({ data: await properties.create(agentOf(req).id, req.body) }),
  )

  app.get(
    '/propertymgmt/getREPropertyDetails/:id',
    {
      schema: { tags: ['properties'], security, params: IdParams, response: { 200: data(Property) } },
      preHandler: app.requireAgent,
    },
    async (req) => ({
      data: await properties.view(await app.deps.access.actor(agentOf(req)), req.params.id),
    }),
  )

  // Public (guest QR pages): an address is public knowledge for a house holding an open house.
  app.get(
    '/public/getREPropertyDetails/:id',
    { schema: { tags: ['public'], params: IdParams, response: { 200: data(Property) } } },
    async (req) => ({ data: await properties.view(null, req.params.id) }),
  )
}
