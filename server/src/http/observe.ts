import { randomUUID, timingSafeEqual } from 'node:crypto'
import http, { type IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.ts'
import { UnauthorizedError } from '../errors.ts'
import { metrics } from '../lib/metrics.ts'
import { readRequestId, readTraceparent, trace, trustsPeer } from '../lib/trace.ts'

/**
 * Fastify's genReqId: a trusted proxy's `x-request-id` (TRUST_PROXY), else a new one. A client that
 * is not a trusted proxy cannot choose the id its log lines are found by.
 */
export function requestIds(config: Pick<Config, 'trustProxy'>): (req: IncomingMessage) => string {
  const trusted = trustsPeer(config.trustProxy)
  return (req) =>
    (trusted(req.socket?.remoteAddress) && readRequestId(req.headers['x-request-id'])) || randomUUID()
}

/**
 * Every request runs in its trace context (lib/trace.ts): its id, and the traceparent a trusted proxy
 * sent, entered once in onRequest for the rest of the request. Body parsing reads the stream from its
 * own events, outside that context, but Fastify 5's content-type parser carries the request's async
 * context across them itself (its own AsyncResource), so the context holds after a body that came in
 * pieces (tests/api/request-trace-split-body.test.ts) without one of ours per request (decision 066).
 */
export function registerTracing(app: FastifyInstance, config: Pick<Config, 'trustProxy'>): void {
  const trusted = trustsPeer(config.trustProxy)
  // An untrusted peer's trace headers are dropped before anything reads them: OpenTelemetry's http
  // instrumentation (decision 052) would otherwise start the request's span in the caller's trace.
  const server = app.server as http.Server
  server.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    const req = args[0] as IncomingMessage
    if (event === 'request' && !trusted(req.socket?.remoteAddress)) {
      delete req.headers.traceparent
      delete req.headers.tracestate
    }
    return Object.getPrototypeOf(this).emit.call(this, event, ...args)
  } as http.Server['emit']
  app.addHook('onRequest', (req, _reply, done) => {
    const traceparent =
      trace.activeSpan() ??
      (trusted(req.socket.remoteAddress) ? readTraceparent(req.headers.traceparent) : undefined)
    trace.run(traceparent ? { requestId: req.id, traceparent } : { requestId: req.id }, done)
  })
  // Request durations by the route's pattern, never its raw URL (ids would make a series each).
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? '(unmatched)'
    if (route !== '/metrics') {
      metrics.observeRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000)
    }
    done()
  })
}

function hasToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '')
  const wanted = Buffer.from(`Bearer ${token}`)
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}

/**
 * `/metrics` on the public port, only with METRICS_TOKEN set and only for a caller that sends it
 * (Authorization: Bearer …). Without the setting the route does not exist.
 */
export function registerMetricsRoute(app: FastifyInstance, token: string | undefined): void {
  if (!token) return
  // Not part of the API's contract: kept out of the OpenAPI description (/api/docs).
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (req, reply) => {
    if (!hasToken(req.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer')
      throw new UnauthorizedError('The metrics token is missing or wrong', 'UNAUTHORIZED')
    }
    const { contentType, body } = await metrics.exposition()
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body)
  })
}

/**
 * `/metrics` on a port of its own (METRICS_PORT), for Prometheus on the private network: the balancer
 * never sends the public there. Anything else on that port is 404.
 */
export async function serveMetrics(port: number, host: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: `No route for ${req.method} ${path}` } }))
      return
    }
    metrics.exposition().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' })
        res.end(body)
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
        res.end(JSON.stringify({ error: { code: 'INTERNAL', message: 'Something went wrong' } }))
      },
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return server
}
