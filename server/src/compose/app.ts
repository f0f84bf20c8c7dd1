import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify'
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import helmet from 'helmet'
import type { Redis } from 'ioredis'
import type { Config } from '../config.ts'
import { createDb, type Db, type DbHandle } from '../db/database.ts'
import { RateLimitedError } from '../errors.ts'
import { backgroundFailures } from '../failures.ts'
import { authPlugin } from '../http/auth.ts'
import { registerDraining } from '../http/draining.ts'
import { registerErrorHandler } from '../http/error-handler.ts'
import { registerLoadShedding } from '../http/load-shedding.ts'
import { registerMetricsRoute, registerTracing, requestIds } from '../http/observe.ts'
import { openApiTransforms } from '../http/openapi.ts'
import { redisStoreWithFallback } from '../http/rate-limit-store.ts'
import { headersSetOnce, helmetPolicy } from '../http/security-headers.ts'
import { serializerCompiler } from '../http/serializer.ts'
import { registerWebApp } from '../http/web-app.ts'
import { registerQueueDashboard } from '../jobs/dashboard.ts'
import { outboxWaiting, queueCounts, welcomesWaiting } from '../jobs/metric-sources.ts'
import { createOutbox, type Outbox } from '../jobs/outbox.ts'
import { closeQueues, createQueues, type Queues } from '../jobs/queues.ts'
import { metrics } from '../lib/metrics.ts'
import { traceLogFields } from '../lib/trace.ts'
import { createMailer, type Mailer } from '../mail/mailer.ts'
import { mailWaiting } from '../mail/retries.ts'
import { adminRoutes } from '../modules/admin/routes.ts'
import { agentRoutes } from '../modules/agents/routes.ts'
import { attendeeRoutes } from '../modules/attendees/routes.ts'
import { authRoutes } from '../modules/auth/routes.ts'
import { createSessionCache } from '../modules/auth/session-cache.ts'
import type { SessionWithAgent } from '../modules/auth/sessions.ts'
import { calendarRoutes } from '../modules/calendar/routes.ts'
import { consentRoutes } from '../modules/consent/routes.ts'
import { contactCardRoutes } from '../modules/contact-cards/routes.ts'
import { customQuestionRoutes } from '../modules/custom-questions/routes.ts'
import { devMailboxRoutes } from '../modules/dev/routes.ts'
import { doorSignRoutes } from '../modules/door-sign/routes.ts'
import { feedbackRoutes } from '../modules/feedback/routes.ts'
import { geocoderRoutes } from '../modules/geocoder/routes.ts'
import { healthRoutes } from '../modules/health/routes.ts'
import { inventoryRoutes } from '../modules/inventory/routes.ts'
import { openHouseRoutes } from '../modules/open-houses/routes.ts'
import { pricingRoutes } from '../modules/pricing/routes.ts'
import { propertyRoutes } from '../modules/properties/routes.ts'
import { prospectRoutes } from '../modules/prospects/routes.ts'
import { publicConfigRoutes } from '../modules/public/routes.ts'
import { pushRoutes } from '../modules/push/routes.ts'
import { reportRoutes } from '../modules/reports/routes.ts'
import { sellerReportRoutes } from '../modules/seller-report/routes.ts'
import { statsRoutes } from '../modules/stats/routes.ts'
import { teamRoutes } from '../modules/teams/routes.ts'
import { webhookRoutes } from '../modules/webhooks/routes.ts'
import { createRealtime, type Realtime } from '../realtime/server.ts'
import { createRedis, whenReady } from '../redis.ts'
import { createServices, type Services } from './services.ts'

/** What routes reach through `app.deps`: the services and the infrastructure they stand on. */
export interface AppDeps extends Services {
  config: Config
  db: Db
  dbKind: DbHandle['kind']
  /** Fails fast while Redis is away: readiness, rate limits, queue producers. */
  redis: Redis
  queues: Queues
  outbox: Outbox
  realtime: Realtime
  mailer: Mailer
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps
    /**
     * Every API route (method and path) and the answers its schema names, as registered: the
     * authorization matrix test walks it, and the contract's test compiles every answer's serializer.
     */
    routeTable: Array<{ method: string; url: string; response?: Record<string, unknown> }>
  }
}

export interface BuildOptions {
  /** An open database to use (and not close); by default one is opened from config.db. */
  db?: DbHandle
  /** Extra routes registered before the web fallback (tests use it to reach the error handler). */
  extend?: (app: FastifyInstance) => void | Promise<void>
}

/** Answers never kept by a cache: the API, the operator's queue dashboard, the dev mailbox. */
const NOT_STORED = /^\/(api|admin|dev)(\/|$|\?)/

/**
 * The browser features a page of ours may use, and nothing else (nor any frame): the property map's
 * "Near me" asks for the location, the copy buttons (calendar feed, seller link, webhook secret) write
 * the clipboard. Nothing films, records or pays: the camera stays off (the door sign's QR code is
 * scanned by the visitor's own camera app, not by a page of ours).
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'browsing-topics=()',
  'camera=()',
  'clipboard-read=()',
  'clipboard-write=(self)',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=(self)',
  'geolocation=(self)',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ')

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Lines written for a request by any logger carry its id (decision 047).
    logger: { level: config.logLevel, mixin: traceLogFields },
    clientErrorHandler: answerClientError,
    // A number of hops trusts that many proxies in front of the server (the nearest first).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // A path that is not valid percent-encoding (/%E0%A4%A) is the caller's error, in the contract's shape.
    frameworkErrors: (_error, _req, reply: FastifyReply) => {
      void reply.code(400).send({ error: { code: 'BAD_REQUEST', message: 'Malformed request' } })
    },
    // A trusted proxy's x-request-id (TRUST_PROXY), else one of ours.
    genReqId: requestIds(config),
    // Refusals while the API stops are answered by registerDraining, in the API's error shape.
    return503OnClosing: false,
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  }).withTypeProvider<ZodTypeProvider>()
  registerDraining(app)
  registerTracing(app, config)
  app.decorate('routeTable', [])
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return
    const response = route.schema?.response as Record<string, unknown> | undefined
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.routeTable.push({ method, url: route.url, response })
    }
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id)
    // What the API answers is someone's: a session's data, a secret address's feed or report, a
    // contact card. No browser, proxy or CDN keeps a copy (a shared computer's back button, a cache in
    // between). Only the web app's own files are cached (web-app.ts).
    if (NOT_STORED.test(req.url)) reply.header('cache-control', 'no-store')
  })

  const dbHandle = options.db ?? (await createDb(config.db))
  const redis = createRedis(config.redis.url, 'command')
  const pub = createRedis(config.redis.url, 'durable', { unawaited: true })
  const sub = createRedis(config.redis.url, 'durable', { unawaited: true })
  // The adapter subscribes as it is created: on a client still connecting, ioredis could drop that
  // subscription, leaving this process deaf to other processes' events. Start it on ready clients.
  await Promise.all([whenReady(redis, 2000), whenReady(pub, 2000), whenReady(sub, 2000)])
  const queues = createQueues(redis, config.redis.prefix)
  const outbox = createOutbox(dbHandle.db, queues, redis, config.relay)
  const mailer = createMailer(config)
  const realtime = createRealtime(app.server, {
    redis: { pub, sub, key: `${config.redis.prefix}:socket.io` },
    corsOrigin: config.publicUrl,
  })
  backgroundFailures.useLogger(app.log)
  const forgetSources = metrics.readFrom({
    outbox: outboxWaiting(dbHandle.db),
    welcomes: welcomesWaiting(dbHandle.db),
    queues: queueCounts(queues),
    sockets: () => realtime.io.engine.clientsCount,
  })
  const sessionCache = createSessionCache<SessionWithAgent>(config.sessionCacheMs, dbHandle)
  const services = createServices({
    config,
    db: dbHandle.db,
    outbox,
    live: realtime,
    redis,
    sessionCache,
  })
  realtime.admit(services.socketAuthority)
  app.decorate('deps', {
    ...services,
    config,
    db: dbHandle.db,
    dbKind: dbHandle.kind,
    redis,
    queues,
    outbox,
    realtime,
    mailer,
  } satisfies AppDeps)

  // Before the HTTP server stops: its open WebSockets would hold the close forever. Ending the
  // connections themselves (not the sockets) lets browsers reconnect, to another API process.
  app.addHook('preClose', async () => {
    realtime.io.engine.close()
  })
  app.addHook('onClose', async () => {
    forgetSources()
    services.stopBatchedLive()
    await sessionCache.close()
    await outbox.stop()
    await new Promise<void>((resolve) => realtime.io.close(() => resolve()))
    await closeQueues(queues)
    mailer.close()
    for (const client of [redis, pub, sub]) client.disconnect()
    if (!options.db) await dbHandle.close()
  })

  registerErrorHandler(app)
  await registerLoadShedding(app, config.shedding, dbHandle.poolWaitMs)
  registerMetricsRoute(app, config.metrics.token)

  // Helmet's headers, worked out once at start (decision 066): @fastify/helmet built its middleware again
  // for every request (parsing the policy each time), and running the middleware itself cost a dozen
  // closures a request; nothing in this policy varies by request.
  const securityHeaders = headersSetOnce(helmet(helmetPolicy(config.mapStyleUrl)))
  app.addHook('onRequest', (_req, reply, done) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY)
    securityHeaders(reply.raw)
    done()
  })
  await app.register(cors, { origin: config.publicUrl })
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.timeWindowMs,
    // Counted in Redis; while Redis is away, in this process: the limits hold and the API stays up.
    store: redisStoreWithFallback(redis, `${config.redis.prefix}:rl:`),
    skipOnError: true,
    allowList: (req) => !req.url.startsWith('/api/'),
    errorResponseBuilder: () => new RateLimitedError(),
  })

  await app.register(authPlugin)
  // OpenAPI 3.1: `null` is a type (3.0's `nullable` has none), and a `webhooks` section has a place.
  // Operation ids, summaries, error answers and media types are derived in one place (decision 043).
  const { transform, transformObject } = openApiTransforms(app)
  await app.register(swagger, {
    openapi: {
      // 3.1: its `webhooks` (added by transformObject) describe every event we POST.
      openapi: '3.1.0',
      info: { title: 'Porchlight API', version: '1.0.0', description: 'Open-house management for agents.' },
      servers: [{ url: '/', description: 'The Porchlight server that serves this document' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform,
    transformObject,
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true })

  await app.register(
    async (api) => {
      await api.register(healthRoutes)
      await api.register(publicConfigRoutes)
      await api.register(pushRoutes)
      await api.register(pricingRoutes)
      await api.register(authRoutes)
      await api.register(agentRoutes)
      await api.register(propertyRoutes)
      await api.register(inventoryRoutes)
      await api.register(openHouseRoutes)
      await api.register(doorSignRoutes)
      await api.register(attendeeRoutes)
      await api.register(prospectRoutes)
      await api.register(feedbackRoutes)
      await api.register(reportRoutes)
      await api.register(teamRoutes)
      await api.register(statsRoutes)
      await api.register(geocoderRoutes)
      await api.register(webhookRoutes)
      await api.register(sellerReportRoutes)
      await api.register(calendarRoutes)
      await api.register(consentRoutes)
      await api.register(customQuestionRoutes)
      await api.register(contactCardRoutes)
    },
    { prefix: '/api' },
  )
  if (mailer.kind === 'store') await app.register(devMailboxRoutes)
  if (config.queueDashboardToken) {
    await registerQueueDashboard(app, queues, config.queueDashboardToken, services.limits, () =>
      mailWaiting(dbHandle.db),
    )
  }
  // Operator routes exist only with ADMIN_TOKEN set.
  if (config.adminToken) await app.register(adminRoutes, { prefix: '/api', token: config.adminToken })
  await options.extend?.(app)

  registerWebApp(app, config.webDist)
  return app
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (a URL or headers over 16 KB, a
 * malformed request line) still answers in the contract's shape.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'HEADERS_TOO_LARGE', 'The address or headers are too long']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request took too long']
        : [400, 'BAD_REQUEST', 'Malformed request']
  const body = JSON.stringify({ error: { code, message } })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}
