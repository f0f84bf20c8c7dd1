import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { sql } from 'kysely'
import { z } from 'zod'
import { ServiceUnavailableError } from '../../errors.ts'
import { backgroundFailures } from '../../failures.ts'
import { within } from '../../lib/within.ts'
import { mailWaiting } from '../../mail/retries.ts'

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        response: { 200: z.object({ data: z.object({ status: z.literal('up') }) }) },
      },
    },
    async () => ({ data: { status: 'up' as const } }),
  )

  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        response: {
          200: z.object({
            data: z.object({
              postgres: z.literal('up'),
              redis: z.literal('up'),
              /** Work after the answer (after-commit, sockets, outbox, jobs) that failed in this process, per source. */
              backgroundFailures: z.record(z.string(), z.number().int()),
              /** Mail the SMTP server could not take yet (decision 031); null when it could not be counted. */
              mail: z
                .object({ waiting: z.number().int(), oldestWaitingSeconds: z.number().int().nullable() })
                .nullable(),
            }),
          }),
        },
      },
    },
    async () => {
      const { db, redis } = app.deps
      // Each server the API needs, named as the answer names it when it does not answer in time.
      const probes: Array<{ name: string; ms: number; check: () => Promise<unknown> }> = [
        { name: 'PostgreSQL', ms: 2000, check: () => sql`select 1`.execute(db) },
        { name: 'Redis', ms: 1000, check: () => redis.ping() },
      ]
      const answers = await Promise.allSettled(probes.map((p) => within(p.ms, p.check())))
      const down = probes.filter((_, i) => answers[i]?.status === 'rejected').map((p) => p.name)
      if (down.length > 0) {
        // Retry-After comes with every 503 (error-handler.ts): a restart is over in seconds.
        throw new ServiceUnavailableError(
          'NOT_READY',
          `${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} not answering`,
        )
      }
      return {
        data: {
          postgres: 'up' as const,
          redis: 'up' as const,
          backgroundFailures: backgroundFailures.counts(),
          mail: await within(2000, mailWaiting(db)).catch(() => null),
        },
      }
    },
  )
}
