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

/** How long ago, in the largest unit that fits. */
function ago(seconds: number): string {
  if (seconds < 120) return `${seconds} s`
  if (seconds < 7200) return `${Math.floor(seconds / 60)} min`
  return `${Math.floor(seconds / 3600)} h`
}

/**
 * The mail queue's line on the dashboard: the mail that waits in PostgreSQL for the SMTP server (it is
 * in no BullMQ state while it waits), read again with each of the dashboard's calls for its queues.
 */
class MailQueueAdapter extends BullMQAdapter {
  waiting = ''
  override getDescription(): string {
    return this.waiting
  }
}

/** Mail the SMTP server could not take yet (mail/retries.ts): how many, and the oldest one's age. */
export type MailWaiting = () => Promise<{ waiting: number; oldestWaitingSeconds: number | null }>

async function describeWaitingMail(mailWaiting: MailWaiting): Promise<string> {
  const { waiting, oldestWaitingSeconds } = await mailWaiting()
  if (waiting === 0) return 'No mail waiting for the mail server'
  return `Waiting for the mail server: ${waiting} mail${waiting === 1 ? '' : 's'}, the oldest written ${ago(
    oldestWaitingSeconds ?? 0,
  )} ago (kept in PostgreSQL; sent once the server takes them)`
}

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
  mailWaiting: MailWaiting,
): Promise<void> {
  const serverAdapter = new FastifyAdapter()
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH)
  const mail = new MailQueueAdapter(queues.mail)
  createBullBoard({
    queues: Object.values(queues).map((q) => (q === queues.mail ? mail : new BullMQAdapter(q))),
    serverAdapter,
  })
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
      if (req.url.startsWith(`${QUEUE_DASHBOARD_PATH}/api/queues`)) {
        mail.waiting = await describeWaitingMail(mailWaiting).catch(
          () => 'Mail waiting: not known (PostgreSQL did not answer)',
        )
      }
    })
    await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH })
  })
}
