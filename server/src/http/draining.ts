import net from 'node:net'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { RETRY_AFTER_SECONDS, unavailable } from './error-handler.ts'

/** How long no request may come before the connections left (idle keep-alive ones) are closed. */
const QUIET_MS = 150
/** After answering what is stuck at the deadline, how long those answers get to be written. */
const FLUSH_MS = 200

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Stops the API gracefully within `graceMs` (SIGTERM): refuses new requests, finishes those in
     * flight, closes every connection, then closes the app (onClose hooks). Resolves once closed.
     */
    drain(graceMs: number): Promise<void>
  }
}

const refuse = (reply: FastifyReply) =>
  reply
    .status(503)
    .header('connection', 'close')
    .header('retry-after', RETRY_AFTER_SECONDS)
    .send({ error: { ...unavailable } })

/**
 * How the API stops without cutting anyone off (a deploy, a scale-down, a restart):
 *
 * 1. From the signal on, no new connection is accepted, a new request is refused with 503
 *    UNAVAILABLE and Retry-After in the API's error shape (not Fastify's own 503 body), and every
 *    answer, those to requests in flight included, carries `Connection: close`: a keep-alive client
 *    learns with its answer that the connection ends, instead of writing its next request into a
 *    socket the server is closing (a reset, no answer).
 * 2. Once the requests in flight are answered and no more come, the app closes: idle connections
 *    closed, then the onClose hooks (sockets, outbox, queues, database).
 * 3. A request still unanswered when `graceMs` is up (stuck on a server that does not answer) is
 *    answered 503 like a new one, and every connection left is cut, so the process ends in time. Its
 *    work may still commit; a client sending it again with the same request id gets the first answer.
 */
export function registerDraining(app: FastifyInstance): void {
  let draining = false
  const inFlight = new Set<FastifyReply>()
  let idle: (() => void) | null = null
  // Requests that came while draining (refused): the drain waits for them to stop coming.
  let refused = 0

  app.addHook('onRequest', (_req, reply, done) => {
    if (draining) {
      refused++
      void refuse(reply)
      return
    }
    inFlight.add(reply)
    // 'close' comes once per response, answered or cut off; 'finish' alone misses an aborted request.
    reply.raw.once('close', () => {
      inFlight.delete(reply)
      if (inFlight.size === 0) idle?.()
    })
    done()
  })
  app.addHook('onSend', async (_req, reply) => {
    if (draining) reply.header('connection', 'close')
  })

  app.decorate('drain', async (graceMs: number) => {
    draining = true
    const deadline = Date.now() + graceMs
    const left = () => Math.max(0, deadline - Date.now())
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    // Not http.Server#close here: it also closes at once every connection with no request under way,
    // and one just accepted, its request on the way, counts as such (its client would get a reset).
    if (app.server.listening) net.Server.prototype.close.call(app.server)
    for (;;) {
      const seen = refused
      while (inFlight.size > 0 && left() > 0) {
        await new Promise<void>((resolve) => {
          idle = resolve
          setTimeout(resolve, left()).unref()
        })
      }
      await sleep(Math.min(QUIET_MS, left()))
      if ((refused === seen && inFlight.size === 0) || left() === 0) break
    }
    if (inFlight.size > 0) {
      app.log.warn({ requests: inFlight.size, graceMs }, 'requests still running at the end of the grace')
      for (const reply of inFlight) if (!reply.sent && !reply.raw.headersSent) void refuse(reply)
      await sleep(FLUSH_MS)
      app.server.closeAllConnections()
    }
    await app.close()
  })
}
