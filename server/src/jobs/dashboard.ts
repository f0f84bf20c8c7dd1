import { timingSafeEqual } from 'node:crypto'
import { createBullBoard } from '@bull-board/api'
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter'
import { FastifyAdapter } from '@bull-board/fastify'
import type { FastifyInstance } from 'fastify'
import { RateLimitedError } from '../errors.ts'
import type { Queues } from './queues.ts'

export const QUEUE_DASHBOARD_PATH = '/admin/queues'

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Wrong passwords counted per address (auth/limits.ts `createAccountLimits`). */
interface PasswordGuesses {
  dashboardPausedFor(source: string): Promise<number>
  dashboardFailed(source: string): Promise<void>
}

/**
 * bull-board's page runs no inline script (its settings travel in a JSON block, which is data), so
 * scripts come from our own origin only; its loading screen and Google's font sheet keep inline and
 * https styles.
 */
const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline' https:; img-src 'self' data:; font-src 'self' data: https:; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"

/**
 * The operator's queue dashboard (bull-board): failed jobs stay visible and can be retried. Only with
 * QUEUE_DASHBOARD_TOKEN set; the browser asks for it as the password (any user name). An address that
 * gave DASHBOARD_FAILURES_PER_SOURCE wrong passwords in 15 minutes is refused (429) until the window ends.
 */
export async function registerQueueDashboard(
  app: FastifyInstance,
  queues: Queues,
  token: string,
  limits: PasswordGuesses,
): Promise<void> {
  const serverAdapter = new FastifyAdapter()
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH)
  createBullBoard({ queues: Object.values(queues).map((q) => new BullMQAdapter(q)), serverAdapter })
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      const [scheme, encoded] = (req.headers.authorization ?? '').split(' ')
      const password =
        scheme === 'Basic' && encoded
          ? Buffer.from(encoded, 'base64').toString().split(':').slice(1).join(':')
          : ''
      const pausedFor = await limits.dashboardPausedFor(req.ip)
      if (pausedFor > 0) {
        const refused = new RateLimitedError()
        return reply
          .status(429)
          .header('retry-after', pausedFor)
          .send({ error: { code: refused.code, message: refused.message } })
      }
      if (!sameSecret(password, token)) {
        // A browser's first visit sends no password: only a wrong one counts.
        if (password) await limits.dashboardFailed(req.ip)
        reply.header('www-authenticate', 'Basic realm="Porchlight queues"')
        return reply
          .status(401)
          .send({ error: { code: 'UNAUTHORIZED', message: 'The queue dashboard needs its token' } })
      }
      reply.header('content-security-policy', DASHBOARD_CSP)
    })
    await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH })
  })
}
