import underPressure from '@fastify/under-pressure'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.ts'
import { OverloadedError } from '../errors.ts'
import { metrics } from '../lib/metrics.ts'

/** How often the database pool's waits are looked at, and the event loop and heap sampled. */
const POOL_CHECK_MS = 1000
const SAMPLE_MS = 1000

/**
 * The liveness check answers whatever the load: an orchestrator that restarts a process whose liveness
 * fails would restart a busy one and make the overload worse. Readiness (/api/ready) is shed, so a
 * balancer sends visitors to the other processes meanwhile.
 */
const LIVENESS = /^\/api\/health(\?|$)/

/**
 * Load shedding (decision 047): while this process is overloaded — its event loop late, its heap near
 * its limit, or statements waiting too long for a database connection — API requests are refused at
 * once with 503 UNAVAILABLE and Retry-After (decision 030's answer), instead of queueing until they
 * time out. The guest page keeps a refused sign-in and sends it again (pending-sign-ins.ts). Only
 * /api/ is shed, but for the liveness check: the web app's files cost nothing, and the socket server is
 * not behind these hooks.
 */
export async function registerLoadShedding(
  app: FastifyInstance,
  settings: Config['shedding'],
  poolWaitMs: () => number,
): Promise<void> {
  // The start compiles every route's schemas and serializers in one go (about a second of a blocked
  // loop, measured): the first sample after it is the start, not overload. Without this a process
  // just ready refused its first second of requests.
  let steadyAfter = Number.POSITIVE_INFINITY
  app.addHook('onReady', async () => {
    steadyAfter = performance.now() + 2 * SAMPLE_MS
  })
  await app.register(underPressure, {
    maxEventLoopDelay: settings.eventLoopDelayMs,
    maxHeapUsedBytes: settings.heapUsedBytes,
    sampleInterval: SAMPLE_MS,
    ...(settings.dbPoolWaitMs > 0
      ? {
          healthCheck: async () => poolWaitMs() <= settings.dbPoolWaitMs,
          healthCheckInterval: POOL_CHECK_MS,
        }
      : {}),
    pressureHandler: (req, _reply, type) => {
      if (!req.url.startsWith('/api/') || LIVENESS.test(req.url)) return undefined
      if (type === 'eventLoopDelay' && performance.now() < steadyAfter) return undefined
      metrics.count('shed', { reason: type === 'healthCheck' ? 'dbPoolWait' : type })
      // The one error handler answers it in the contract's shape, with Retry-After.
      return Promise.reject(new OverloadedError())
    },
  })
}
