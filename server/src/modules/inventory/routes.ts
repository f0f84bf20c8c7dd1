import { InventoryItem, messages, SaveInventoryBody, UpdateInventoryBody } from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { data, IdParams, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

export const inventoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { inventory } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }

  app.get(
    '/reinventorymgmt/getOHEligibleREInventoryByOwningREAgentId/:agentId',
    {
      schema: {
        tags: ['inventory'],
        security,
        params: z.object({ agentId: z.coerce.number().int().positive() }),
        response: { 200: data(z.array(InventoryItem)) },
      },
      preHandler: [app.requireLicensedAgent, requireSelf('agentId', 'You can only list your own inventory')],
    },
    async (req) => ({ data: await inventory.listEligible(agentOf(req).id) }),
  )

  app.post(
    '/reinventorymgmt/saveREInventory',
    {
      schema: {
        tags: ['inventory'],
        security,
        body: SaveInventoryBody,
        response: { 201: data(InventoryItem) },
      },
      preHandler: [
        app.requireLicensedAgent,
        requireSelf('owningREAgentId', 'You can only add to your own inventory', { in: 'body' }),
      ],
    },
    async (req, reply) => reply.status(201).send({ data: await inventory.create(agentOf(req).id, req.body) }),
  )

  app.patch(
    '/reinventorymgmt/saveREInventory/:id',
    {
      schema: {
        tags: ['inventory'],
        security,
        params: IdParams,
        body: UpdateInventoryBody,
        response: { 200: data(InventoryItem) },
      },
      ...guard,
    },
    async (req) => ({ data: await inventory.update(agentOf(req).id, req.params.id, req.body) }),
  )

  app.get(
    '/reinventorymgmt/getREInventoryDetails/:id',
    {
      schema: { tags: ['inventory'], security, params: IdParams, response: { 200: data(InventoryItem) } },
      ...guard,
    },
    async (req) => ({ data: await inventory.get(agentOf(req).id, req.params.id) }),
  )

  app.delete(
    '/reinventorymgmt/deleteREInventory/:id',
    {
      schema: {
        tags: ['inventory'],
        security,
        params: IdParams,
        response: { 200: data(z.object({ deleted: z.literal(true), message: z.string() })) },
      },
      ...guard,
    },
    async (req) => {
      await inventory.remove(agentOf(req).id, req.params.id)
      return { data: { deleted: true as const, message: messages.propertyDeletedFromInventory } }
    },
  )
}
