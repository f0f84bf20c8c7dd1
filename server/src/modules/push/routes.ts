import {
  ClaimFromNotificationBody,
  NotificationSettings,
  OpenHouseDetails,
  PushSubscriptionView,
  SavePushSubscriptionBody,
} from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'

const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema })
const IdParams = z.object({ id: z.coerce.number().int().positive() })
const security = [{ bearer: [] }]
const tags = ['notifications']

export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  const { push } = app.deps
  const guard = { preHandler: app.requireAgent }

  app.post(
    '/notificationmgmt/savePushSubscription',
    {
      schema: {
        tags,
        security,
        description: "The browser's PushSubscription (toJSON()); the same endpoint again replaces its keys.",
        body: SavePushSubscriptionBody,
        response: { 201: data(z.object({ id: z.number() })) },
      },
      ...guard,
    },
    async (req, reply) => reply.status(201).send({ data: await push.save(agentOf(req), req.body) }),
  )

  app.get(
    '/notificationmgmt/getPushSubscriptions',
    { schema: { tags, security, response: { 200: data(z.array(PushSubscriptionView)) } }, ...guard },
    async (req) => ({ data: await push.list(agentOf(req)) }),
  )

  app.delete(
    '/notificationmgmt/deletePushSubscription/:id',
    {
      schema: { tags, security, params: IdParams, response: { 200: data(z.object({ id: z.number() })) } },
      ...guard,
    },
    async (req) => ({ data: await push.remove(agentOf(req), req.params.id) }),
  )

  app.get(
    '/notificationmgmt/notificationSettings',
    { schema: { tags, security, response: { 200: data(NotificationSettings) } }, ...guard },
    async (req) => ({ data: await push.settings(agentOf(req)) }),
  )

  app.post(
    '/notificationmgmt/notificationSettings',
    {
      schema: { tags, security, body: NotificationSettings, response: { 200: data(NotificationSettings) } },
      ...guard,
    },
    async (req) => ({ data: await push.saveSettings(agentOf(req), req.body) }),
  )

  app.get(
    '/public/pushPublicKey',
    {
      schema: {
        tags,
        description: 'The VAPID public key browsers subscribe with (null: this server sends no push).',
        response: { 200: data(z.object({ publicKey: z.string().nullable() })) },
      },
    },
    async () => ({ data: { publicKey: push.publicKey() } }),
  )

  app.post(
    '/public/claimFromNotification',
    {
      schema: {
        tags,
        description:
          "Claims with the single-use capability of an offer's push, as the agent it was sent to (same policy, race and messages as claimToHostOpenHouse). 410 once used or when the offer has ended; 403 when signed in as another agent.",
        body: ClaimFromNotificationBody,
        response: {
          200: data(z.object({ openHouseId: z.number(), message: z.string(), openHouse: OpenHouseDetails })),
        },
      },
      // The service worker calls without a session; a signed-in caller must be the token's agent.
      preHandler: async (req, reply) => {
        if (req.headers.authorization) await app.requireAgent(req, reply)
      },
      config: { rateLimit: { max: app.deps.config.rateLimit.guestPerMinute, timeWindow: 60_000 } },
    },
    async (req) => ({ data: await push.claimFromNotification(req.agent ?? null, req.body) }),
  )
}
