// OpenTelemetry export (decision 052): the production API (server/dist, as the image's user, with the
// compose file's settings) with OTEL_EXPORTER_OTLP_ENDPOINT set sends a guest sign-in's spans, in the
// trace the request came with, to an OTLP/HTTP receiver of the test's own; unset, nothing of it loads.
import { randomBytes as bytes, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { apiCaller, deleteKeys } from '../support/api.ts'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import {
  type ApiProcess,
  ensureServerBuilt,
  startProductionApi,
  startProductionWorker,
} from '../support/porchlight-processes.ts'
import { freePort, type StartedProcess, stop } from '../support/processes.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes?: { key: string; value: { stringValue?: string } }[]
}
interface Received {
  scope: string
  span: OtlpSpan
}

const prefix = `o${randomBytes(5).toString('hex')}`
let database: TestDatabase
let api: ApiProcess
let worker: StartedProcess
let smtp: SmtpSink
let receiver: http.Server
const received: Received[] = []
const contentTypes = new Set<string>()

beforeAll(async () => {
  // The OTLP/HTTP endpoint: what a collector would take at /v1/traces.
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      contentTypes.add(`${req.method} ${req.url} ${req.headers['content-type']}`)
      if (req.url === '/v1/traces' && req.headers['content-type']?.startsWith('application/json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[]
        }
        for (const r of body.resourceSpans)
          for (const s of r.scopeSpans)
            for (const span of s.spans) received.push({ scope: s.scope.name, span })
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  database = await createTestDatabase()
  smtp = await startSmtpSink()
  const settings = {
    DATABASE_URL: database.url,
    REDIS_URL: inject('redisUrl'),
    REDIS_KEY_PREFIX: prefix,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    // Batches sent every 200 ms rather than every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '200',
  }
  api = await startProductionApi(settings)
  worker = startProductionWorker({
    ...settings,
    HOST: '127.0.0.1',
    METRICS_PORT: String(await freePort()),
    WORKER_HEARTBEAT_FILE: path.join(os.tmpdir(), `porchlight-heartbeat-${prefix}`),
  })
}, 180_000)

afterAll(async () => {
  if (api) await stop(api.child)
  if (worker) await stop(worker.child)
  receiver?.close()
  await smtp?.close()
  await database?.drop()
  await deleteKeys(inject('redisUrl'), `${prefix}:*`)
}, 60_000)

const attribute = (span: OtlpSpan, ...keys: string[]) =>
  span.attributes?.find((a) => keys.includes(a.key))?.value.stringValue

it("exports a guest sign-in's spans (HTTP, Fastify, PostgreSQL, Redis, the worker's mail) in the trace its traceparent names", async () => {
  const call = apiCaller(api.origin)
  const host = await makePlannedAgent(database.handle.db)
  const oh = await scheduleOpenHouse({ call }, host, { publishLevel: 'Hosting Myself' })

  // As the balancer passes it on (TRUST_PROXY=1 in docker-compose.yml): the caller's trace.
  const traceId = bytes(16).toString('hex')
  const parentId = bytes(8).toString('hex')
  const res = await fetch(`${api.origin}/api/public/saveProspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${parentId}-01` },
    // Consenting to mail: the sign-in leaves its thank-you for the workers.
    body: JSON.stringify(
      guestFields(oh.id, { emailConsent: true, consentText: 'Email me about homes like this one.' }),
    ),
  })
  expect(res.status).toBe(201)

  const inTrace = () => received.filter((r) => r.span.traceId === traceId)
  const deadline = Date.now() + 20_000
  const scopes = ['instrumentation-http', '@fastify/otel', 'instrumentation-pg', 'instrumentation-ioredis']
  // Spans come in batches as they end: the request's own ends last.
  while (!scopes.every((scope) => inTrace().some((r) => r.scope.includes(scope))) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200))
  const spans = inTrace()
  expect(spans.length, JSON.stringify([...contentTypes])).toBeGreaterThan(0)

  // The request's own span continues the caller's: its parent is the caller's span.
  const server = spans.find((r) => r.scope.includes('instrumentation-http') && r.span.kind === 2)
  expect(server?.span.parentSpanId).toBe(parentId)
  expect(server?.span.name).toMatch(/^POST/)
  // Fastify's route, PostgreSQL's statements and Redis's commands of this sign-in, in the same trace.
  expect(spans.some((r) => r.scope === '@fastify/otel')).toBe(true)
  const statements = spans.filter((r) => r.scope.includes('instrumentation-pg') && r.span.kind === 3)
  expect(statements.map((r) => attribute(r.span, 'db.statement', 'db.query.text')).join('\n')).toMatch(
    /insert into "?open_house_attendee/i,
  )
  expect(spans.some((r) => r.scope.includes('instrumentation-ioredis'))).toBe(true)
  // What the sign-in left for the workers (its welcome; then the thank-you mail and outbox rows the
  // worker writes for it, decision 053) carries a span of this trace, so the jobs' spans continue it.
  const traced = async () =>
    (
      await sql<{ traceparent: string }>`
    select trace->>'traceparent' as traceparent from mail where trace->>'traceparent' like ${`00-${traceId}-%`}
    union all
    select trace->>'traceparent' from outbox where trace->>'traceparent' like ${`00-${traceId}-%`}`.execute(
        database.handle.db,
      )
    ).rows
  await expect.poll(async () => (await traced()).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2)
  const rows = await traced()
  const exported = new Set(spans.map((r) => r.span.spanId))
  for (const row of rows) expect(exported).toContain(row.traceparent.split('-')[2])

  // The worker's work for it (its thank-you's sending) is spans of the same trace, children of the
  // request's spans.
  const jobDeadline = Date.now() + 30_000
  const jobs = () => inTrace().filter((r) => r.scope === 'porchlight' && r.span.kind === 5)
  while (jobs().length === 0 && Date.now() < jobDeadline) await new Promise((r) => setTimeout(r, 200))
  expect(jobs().length, worker.output()).toBeGreaterThan(0)
  for (const job of jobs()) expect(exported).toContain(job.span.parentSpanId)
  // Statements' text only: a guest's email is a parameter, never in a span.
  expect(JSON.stringify(spans)).not.toContain('@example')
}, 60_000)

it('loads nothing of OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is unset: the entry imports it only on demand', () => {
  const entry = ensureServerBuilt()
  // Every module server/dist/api.js loads by static imports, followed through its chunks.
  const seen = new Set<string>()
  const packages = new Set<string>()
  const walk = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const text = fs.readFileSync(file, 'utf8')
    for (const [, spec] of text.matchAll(/^(?:import|export)\s[^;]*?from\s*"([^"]+)"/gms)) {
      if (spec?.startsWith('.')) walk(path.resolve(path.dirname(file), spec))
      else if (spec) packages.add(spec)
    }
  }
  walk(entry)
  expect(packages.size).toBeGreaterThan(0)
  expect([...packages].filter((p) => /opentelemetry|otel/.test(p))).toEqual([])
  // Nor what it instruments: those must load after the SDK, when it is set.
  expect([...packages].filter((p) => ['fastify', 'pg', 'ioredis'].includes(p))).toEqual([])
})

it('refuses a malformed OTEL_EXPORTER_OTLP_ENDPOINT, naming it', async () => {
  const { loadConfig, ConfigError } = await import('@porchlight/server/src/config.ts')
  for (const endpoint of ['collector:4318', 'grpc://collector:4317']) {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(ConfigError)
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/)
  }
  expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).telemetry.endpoint).toBe(
    'http://collector:4318',
  )
  expect(loadConfig({}).telemetry.endpoint).toBeUndefined()
})
