import {
  CreatedWebhookEndpoint,
  FubConnector,
  SaveFubConnectorBody,
  SaveWebhookEndpointBody,
  WebhookDelivery,
  WebhookEndpoint,
} from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { AgentParams, data, PositiveId, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const EndpointParams = z.object({ endpointId: PositiveId })
const DeliveryParams = z.object({ deliveryId: PositiveId })
const Paging = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
})
const tags = ['integrations']

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { webhooks } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }

  app.post(
    '/webhookmgmt/saveWebhookEndpoint',
    {
      schema: {
        tags,
        security,
        description: 'Registers an endpoint; the signing secret (whsec_…) is in this answer only.',
        body: SaveWebhookEndpointBody,
        response: { 201: data(CreatedWebhookEndpoint) },
      },
      ...guard,
    },
    async (req, reply) => reply.status(201).send({ data: await webhooks.save(agentOf(req), req.body) }),
  )

  app.get(
    '/webhookmgmt/getWebhookEndpointsByREAgentId/:agentId',
    {
      schema: { tags, security, params: AgentParams, response: { 200: data(z.array(WebhookEndpoint)) } },
      preHandler: [
        app.requireLicensedAgent,
        requireSelf('agentId', 'You can only see your own integrations'),
      ],
    },
    async (req) => ({ data: await webhooks.list(agentOf(req)) }),
  )

  app.get(
    '/webhookmgmt/getWebhookDeliveries/:endpointId',
    {
      schema: {
        tags,
        security,
        params: EndpointParams,
        querystring: Paging,
        response: { 200: data(z.array(WebhookDelivery)) },
      },
      ...guard,
    },
    async (req) => ({ data: await webhooks.deliveries(agentOf(req), req.params.endpointId, req.query) }),
  )

  app.post(
    '/webhookmgmt/replayWebhookDelivery/:deliveryId',
    {
      schema: {
        tags,
        security,
        description:
          'Sends a finished delivery again, once, with the same webhook-id. 409 DELIVERY_PENDING while it is being attempted; 409 ALREADY_REPLAYED within a minute of its last replay (replays asked for at once are one).',
        params: DeliveryParams,
        response: { 202: data(WebhookDelivery) },
      },
      ...guard,
    },
    async (req, reply) =>
      reply.status(202).send({ data: await webhooks.replay(agentOf(req), req.params.deliveryId) }),
  )

  app.post(
    '/webhookmgmt/sendWebhookTestEvent/:endpointId',
    {
      schema: {
        tags,
        security,
        description: 'Delivers a webhook.test event to the endpoint, once.',
        params: EndpointParams,
        response: { 202: data(WebhookDelivery) },
      },
      ...guard,
    },
    async (req, reply) =>
      reply.status(202).send({ data: await webhooks.sendTest(agentOf(req), req.params.endpointId) }),
  )

  app.delete(
    '/webhookmgmt/deleteWebhookEndpoint/:endpointId',
    {
      schema: {
        tags,
        security,
        params: EndpointParams,
        response: { 200: data(z.object({ id: z.number() })) },
      },
      ...guard,
    },
    async (req) => {
      await webhooks.remove(agentOf(req), req.params.endpointId)
      return { data: { id: req.params.endpointId } }
    },
  )

  app.get(
    '/webhookmgmt/getFubConnector',
    { schema: { tags, security, response: { 200: data(FubConnector) } }, ...guard },
    async (req) => ({ data: await webhooks.fub(agentOf(req)) }),
  )

  app.post(
    '/webhookmgmt/saveFubConnector',
    {
      schema: {
        tags,
        security,
        description:
          "Tries the Follow Up Boss API key (GET /v1/identity), then stores it; only its last four characters are ever answered. 422 VALIDATION with Follow Up Boss's reason when it refuses the key.",
        body: SaveFubConnectorBody,
        response: { 200: data(FubConnector) },
      },
      ...guard,
    },
    async (req) => ({ data: await webhooks.saveFub(agentOf(req), req.body) }),
  )

  app.post(
    '/webhookmgmt/retryFubConnector',
    {
      schema: {
        tags,
        security,
        description:
          "Sends every lead waiting for the caller's Follow Up Boss once, now (after a new key, or when it answers again). 409 NOT_CONNECTED without a key.",
        response: { 202: data(FubConnector) },
      },
      ...guard,
    },
    async (req, reply) => reply.status(202).send({ data: await webhooks.retryFub(agentOf(req)) }),
  )

  app.delete(
    '/webhookmgmt/deleteFubConnector',
    { schema: { tags, security, response: { 200: data(FubConnector) } }, ...guard },
    async (req) => {
      await webhooks.removeFub(agentOf(req))
      return { data: await webhooks.fub(agentOf(req)) }
    },
  )
}
