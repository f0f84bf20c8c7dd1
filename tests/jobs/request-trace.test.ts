// Request ids and trace context (decision 047): a guest's sign-in, sent through the balancer with its
// x-request-id and traceparent, is found by that id in the answer, in the API process's log lines and in
// the worker process's log lines of the jobs it caused. Real API and worker processes, their pino output
// captured as an operator's log shipper would read it.
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { apiCaller, deleteKeys } from '../support/api.ts'
import { buildTestApp, createTestDatabase, type TestDatabase } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type ApiProcess, startApiProcess, startWorkerProcess } from '../support/porchlight-processes.ts'
import { freePort, type StartedProcess, stop } from '../support/processes.ts'
import { sample, scrape } from '../support/prometheus.ts'
import { until } from '../support/webhook-receiver.ts'

const CONSENT = 'I agree that the listing agent may contact me by email about this and similar homes.'

let database: TestDatabase
let api: ApiProcess
let worker: StartedProcess
let workerMetrics: string
const prefix = `rt${randomBytes(4).toString('hex')}`

beforeAll(async () => {
  database = await createTestDatabase()
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: inject('redisUrl'),
    REDIS_KEY_PREFIX: prefix,
    // The balancer in front is on this machine.
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'debug',
  }
  const port = await freePort()
  workerMetrics = `http://127.0.0.1:${port}/metrics`
  ;[api, worker] = await Promise.all([
    startApiProcess(env),
    Promise.resolve(startWorkerProcess({ ...env, METRICS_PORT: String(port), HOST: '127.0.0.1' })),
  ])
  await worker.waitUntil('worker started', () => worker.output().includes('worker started'), 90_000)
}, 120_000)

afterAll(async () => {
  await Promise.all([api && stop(api.child), worker && stop(worker.child)])
  await deleteKeys(inject('redisUrl'), `${prefix}:*`)
  await database?.drop()
})

/** The JSON log lines of a process's output (pino writes one object a line). */
const logLines = (output: string): Array<Record<string, unknown>> =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('a request id from the trusted proxy', () => {
  it('is in the answer, the log lines of its request and those of the jobs it caused', async () => {
    const call = apiCaller(api.origin)
    const listing = await makePlannedAgent(database.handle.db)
    const oh = await scheduleOpenHouse({ call }, listing, { publishLevel: 'Hosting Myself' })
    const requestId = `door-${randomBytes(6).toString('hex')}`
    const traceId = randomBytes(16).toString('hex')
    const before = await scrape(workerMetrics)

    const res = await fetch(`${api.origin}/api/public/saveProspect`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-request-id': requestId,
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      },
      body: JSON.stringify({
        prospectFirstName: 'Jordan',
        prospectLastName: 'Rivers',
        prospectPhoneNumber: '404 555 0142',
        prospectEmailId: `jordan-${randomBytes(4).toString('hex')}@example.com`,
        openHouseId: oh.id,
        clientRequestId: randomUUID(),
        emailConsent: 'true',
        consentText: CONSENT,
      }),
    })
    expect(res.status, await res.clone().text()).toBe(201)
    expect(res.headers.get('x-request-id')).toBe(requestId)

    // The request's own lines (Fastify's, at debug) carry the id; the last is written once answered.
    await api.waitUntil('the request completed line', () =>
      logLines(api.output()).some((l) => l.requestId === requestId && l.msg === 'request completed'),
    )
    const requestLines = logLines(api.output()).filter((l) => l.requestId === requestId)
    expect(requestLines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    )

    // The worker welcomes the guest apart from the request (decision 053), in the request's trace.
    await until(
      async () =>
        (await database.handle.db
          .selectFrom('mail')
          .select('id')
          .where('toAddress', 'like', 'jordan-%')
          .executeTakeFirst()) !== undefined,
      'the thank-you written by the worker',
    )
    // The outbox kept the request's trace on the jobs it caused (the follow-up mail, due later).
    const rows = await database.handle.db
      .selectFrom('outbox')
      .select(['id', 'queue', 'jobName', 'trace'])
      .where('trace', 'is not', null)
      .execute()
    const caused = rows.filter((r) => r.trace?.requestId === requestId)
    expect(caused.map((r) => `${r.queue}/${r.jobName}`)).toContain('mail/followUp')
    for (const row of caused) expect(row.trace?.traceparent?.slice(3, 35)).toBe(traceId)
    // The thank-you shares its send job with other requests' mail (decisions 045, 053): its row keeps
    // the trace, and the worker sends it inside it.
    const thankYou = await database.handle.db
      .selectFrom('mail')
      .select(['id', 'trace'])
      .where('toAddress', 'like', 'jordan-%')
      .executeTakeFirstOrThrow()
    expect(thankYou.trace?.requestId).toBe(requestId)

    await worker.waitUntil(
      'the mail line of the request',
      () =>
        logLines(worker.output()).some(
          (l) => l.requestId === requestId && l.msg === 'mail handed over' && l.mailId === thankYou.id,
        ),
      30_000,
    )
    const jobLines = logLines(worker.output()).filter((l) => l.requestId === requestId)
    expect(jobLines.map((l) => l.msg)).toContain('mail handed over')
    // The job continues the caller's trace (same trace id, a span of its own).
    for (const line of jobLines) expect(line.traceId).toBe(traceId)

    // The worker's own metrics, on its own port, counted the mail.
    const after = await scrape(workerMetrics)
    const stored = (f: typeof after) =>
      sample(f, 'porchlight_deliveries_total', { channel: 'mail', outcome: 'delivered' })
    expect(stored(after) - stored(before)).toBe(1)
  }, 90_000)
})

describe('a request id from anyone else', () => {
  it('is not believed: the answer carries one of ours', async () => {
    // No TRUST_PROXY: the caller is a browser, which may not choose the id its lines are found by.
    const t = await buildTestApp()
    try {
      const res = await fetch(`${t.url}/api/health`, {
        headers: {
          'x-request-id': 'chosen-by-the-caller',
          traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`,
        },
      })
      expect(res.status, await res.clone().text()).toBe(200)
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    } finally {
      await t.close()
    }
  })
})
