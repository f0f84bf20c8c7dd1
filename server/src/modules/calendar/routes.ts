import { CalendarFeedUrl } from '@porchlight/shared/schemas/calendar-feed'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { AgentParams, data, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const tags = ['calendar feed']
const own = requireSelf('agentId', 'You can only see your own calendar feed')

/** The agent's secret iCalendar feed (issue 14): its address, its revocation, and the feed itself. */
export const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  const { calendarFeeds } = app.deps

  app.get(
    '/openhousemgmt/getCalendarFeedUrl/:agentId',
    {
      schema: { tags, security, params: AgentParams, response: { 200: data(CalendarFeedUrl) } },
      preHandler: [app.requireLicensedAgent, own],
    },
    async (req) => ({ data: await calendarFeeds.feedUrl(agentOf(req)) }),
  )

  app.delete(
    '/openhousemgmt/revokeCalendarFeed/:agentId',
    {
      schema: {
        tags,
        security,
        params: AgentParams,
        response: { 200: data(z.object({ revoked: z.boolean() })) },
      },
      preHandler: [app.requireLicensedAgent, own],
    },
    async (req) => ({ data: await calendarFeeds.revoke(agentOf(req)) }),
  )

  // Calendar apps fetch this without a token of ours: the secret in the address is the authority.
  app.get(
    '/public/calendar/:token.ics',
    { schema: { tags: ['public'], params: z.object({ token: z.string().max(200) }) } },
    async (req, reply) =>
      reply
        .type('text/calendar; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex')
        .send(await calendarFeeds.feed(req.params.token)),
  )
}
