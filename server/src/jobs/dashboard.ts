import { timingSafeEqual } from 'node:crypto'
import { createBullBoard } from '@bull-board/api'
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter'
import { FastifyAdapter } from '@bull-board/fastify'
import type { FastifyInstance } from 'fastify'
import type { Queues } from './queues.ts'

export const QUEUE_DASHBOARD_PATH = '/admin/queues'

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The operator's queue dashboard (bull-board): failed jobs stay visible and can be retried. Only with
 * QUEUE_DASHBOARD_TOKEN set; the browser asks for it as the password (any user name).
 */
export async function registerQueueDashboard(
  app: FastifyInstance,
  queues: Queues,
  token: string,
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
      if (!sameSecret(password, token)) {
        reply.header('www-authenticate', 'Basic realm="Porchlight queues"')
        return reply
          .status(401)
          .send({ error: { code: 'UNAUTHORIZED', message: 'The queue dashboard needs its token' } })
      }
      // bull-board's page runs its own inline bootstrap script.
      reply.header(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline' https:; img-src 'self' data:; font-src 'self' data: https:",
      )
    })
    await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH })
  })
}
