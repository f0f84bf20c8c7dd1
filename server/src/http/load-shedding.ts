import underPressure from '@fastify/under-pressure'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.ts'
import { OverloadedError } from '../errors.ts'
import { metrics } from '../lib/metrics.ts'

/** How often the database pool's waits are looked at (the other measures are sampled every second). */
const POOL_CHECK_MS = 1000

/**
 * Load shedding (decision 047): while this process is overloaded — its event loop late, its heap near
 * its limit, or statements waiting too long for a database connection — API requests are refused at
 * once with 503 UNAVAILABLE and Retry-After (decision 030's answer), instead of queueing until they
 * time out. The guest page keeps a refused sign-in and sends it again (pending-sign-ins.ts). Only
 * /api/ is shed: the web app's files cost nothing, and the socket server is not behind these hooks.
 */
export async function registerLoadShedding(
  app: FastifyInstance,
  settings: Config['shedding'],
  poolWaitMs: () => number,
): Promise<void> {
  await app.register(underPressure, {
    maxEventLoopDelay: settings.eventLoopDelayMs,
    maxHeapUsedBytes: settings.heapUsedBytes,
    sampleInterval: 1000,
    ...(settings.dbPoolWaitMs > 0
      ? {
          healthCheck: async () => poolWaitMs() <= settings.dbPoolWaitMs,
          healthCheckInterval: POOL_CHECK_MS,
        }
      : {}),
    pressureHandler: (req, _reply, type) => {
      if (!req.url.startsWith('/api/')) return undefined
      metrics.count('shed', { reason: type === 'healthCheck' ? 'dbPoolWait' : type })
      // The one error handler answers it in the contract's shape, with Retry-After.
      return Promise.reject(new OverloadedError())
    },
  })
}
