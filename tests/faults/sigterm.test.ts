// SIGTERM to the production API process while 20 keep-alive connections keep it busy with guest
// sign-ins: it exits within 10 s, every request it answered was either taken (and is in the database)
// or refused in the API's error shape, and none was cut off without an answer.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { createOutbox } from '@porchlight/server/src/jobs/outbox.ts'
import { closeQueues, createQueues } from '@porchlight/server/src/jobs/queues.ts'
import { queueMail } from '@porchlight/server/src/mail/queue-mail.ts'
import { createRedis, whenReady } from '@porchlight/server/src/redis.ts'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { apiCaller, deleteKeys } from '../support/api.ts'
import { createTestDatabase, type TestDatabase } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type ApiProcess, startApiProcess, startWorkerProcess } from '../support/porchlight-processes.ts'
import { type StartedProcess, stop } from '../support/processes.ts'
import { startSmtpSink } from '../support/smtp.ts'

const CONNECTIONS = 20
const prefix = `s${randomBytes(5).toString('hex')}`
let database: TestDatabase
let api: ApiProcess

const startApi = () =>
  startApiProcess({
    DATABASE_URL: database.url,
    REDIS_URL: inject('redisUrl'),
    REDIS_KEY_PREFIX: prefix,
    GUEST_RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_MAX: '100000',
    LOG_LEVEL: 'warn',
  })

beforeAll(async () => {
  database = await createTestDatabase()
}, 180_000)

afterAll(async () => {
  if (api && api.child.exitCode === null) api.child.kill('SIGKILL')
  await database?.drop()
  await deleteKeys(inject('redisUrl'), `${prefix}:*`)
}, 60_000)

interface Outcome {
  email: string
  status?: number
  retryAfter?: string
  body?: string
  /** The connection failed with no answer (its code). */
  failure?: string
}

/** One request on the agent's keep-alive connections; answers what came back. */
function post(agent: http.Agent, path: string, payload: { prospectEmailId: string }): Promise<Outcome> {
  const data = JSON.stringify(payload)
  return new Promise((resolve) => {
    const req = http.request(
      `${api.origin}/api${path}`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => {
          body += c
        })
        res.on('end', () =>
          resolve({
            email: payload.prospectEmailId,
            status: res.statusCode,
            retryAfter: res.headers['retry-after'],
            body,
          }),
        )
      },
    )
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ email: payload.prospectEmailId, failure: err.code ?? err.message }),
    )
    req.end(data)
  })
}

/**
 * Guests sign in on 20 keep-alive connections, each sending its next sign-in as soon as the last one
 * is answered; `beforeSignal` runs, then SIGTERM. Once it is sent, half of the connections go on until
 * the server is gone; the other half keep their connection open, idle, as a browser does after its
 * last request. Answers how long the process took to exit, its exit code and every request's outcome.
 */
async function signInsThenSigterm(beforeSignal: () => Promise<void> = async () => {}) {
  const host = await makePlannedAgent(database.handle.db)
  const oh = await scheduleOpenHouse({ call: apiCaller(api.origin) }, host, {
    publishLevel: 'Hosting Myself',
  })
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const outcomes: Outcome[] = []
  let signaled = false
  const loops = Array.from({ length: CONNECTIONS }, async (_, i) => {
    for (;;) {
      if (signaled && i % 2 === 1) return
      const outcome = await post(agent, '/public/saveProspect', guestFields(oh.id))
      outcomes.push(outcome)
      if (outcome.failure) return
    }
  })
  await expect.poll(() => outcomes.length, { timeout: 30_000, interval: 50 }).toBeGreaterThan(100)
  await beforeSignal()
  const exited = new Promise<number | null>((resolve) => api.child.once('exit', resolve))
  const sentAt = Date.now()
  api.child.kill('SIGTERM')
  signaled = true
  const code = await exited
  const tookMs = Date.now() - sentAt
  await Promise.all(loops)
  agent.destroy()
  const taken = outcomes.filter((o) => o.status === 201)
  const refused = outcomes.filter((o) => o.status !== undefined && o.status !== 201)
  const unanswered = outcomes.filter((o) => o.failure)
  console.info(
    `exit ${code} after ${tookMs} ms; ${taken.length} taken, ${refused.length} refused, ` +
      `unanswered: ${JSON.stringify(unanswered.map((o) => o.failure))}`,
  )
  return { code, tookMs, taken, refused, unanswered }
}

/** Every request was answered (or found nobody listening), each refusal in the API's error shape. */
function expectAnsweredOrRefused({ refused, unanswered }: Awaited<ReturnType<typeof signInsThenSigterm>>) {
  // After the exit, a new connection finds nobody listening; no request was cut off on its connection.
  expect(unanswered.map((o) => o.failure).filter((f) => f !== 'ECONNREFUSED')).toEqual([])
  for (const o of refused) {
    expect({ status: o.status, body: JSON.parse(o.body ?? '') }).toEqual({
      status: 503,
      body: { error: { code: 'UNAVAILABLE', message: expect.any(String) } },
    })
    expect(Number(o.retryAfter)).toBeGreaterThan(0)
  }
}

/** Every sign-in the API acknowledged is in the database. */
async function expectStored(taken: Outcome[]) {
  const stored = await database.handle.db
    .selectFrom('prospect')
    .select('prospectEmailId')
    .where(
      'prospectEmailId',
      'in',
      taken.map((o) => o.email),
    )
    .execute()
  expect(stored).toHaveLength(taken.length)
}

describe('SIGTERM under load', () => {
  it('exits within 10 s with 20 busy keep-alive connections, losing no acknowledged sign-in', async () => {
    api = await startApi()
    const run = await signInsThenSigterm()
    expect(run.tookMs).toBeLessThanOrEqual(10_000)
    expect(run.code, api.output()).toBe(0)
    expect(run.refused.length).toBeGreaterThan(0)
    expectAnsweredOrRefused(run)
    await expectStored(run.taken)
  }, 180_000)

  it('answers requests stuck on a locked table with 503 at the end of the grace and exits within 10 s', async () => {
    api = await startApi()
    // Another session holds the guests' table: every sign-in in flight waits on it and never finishes.
    const locker = new pg.Client({ connectionString: database.url })
    await locker.connect()
    try {
      const run = await signInsThenSigterm(async () => {
        await locker.query('begin')
        await locker.query('lock table prospect in access exclusive mode')
        await new Promise((r) => setTimeout(r, 300))
      })
      expect(run.tookMs).toBeLessThanOrEqual(10_000)
      expect(run.refused.length).toBeGreaterThanOrEqual(CONNECTIONS / 2)
      expectAnsweredOrRefused(run)
      await locker.query('rollback')
      await expectStored(run.taken)
    } finally {
      await locker.end()
    }
  }, 180_000)

  it('stops a worker within 10 s while it sends mail, and the next worker sends the rest, each once', async () => {
    const smtp = await startSmtpSink({ delayMs: 50 })
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: inject('redisUrl'),
      REDIS_KEY_PREFIX: prefix,
      SMTP_URL: `${smtp.url}?maxConnections=8`,
      LOG_LEVEL: 'warn',
    }
    const started: StartedProcess[] = []
    // Written and handed to the queue as the API does it (mail row, outbox row, relay after commit).
    const redis = createRedis(inject('redisUrl'), 'command')
    const queues = createQueues(redis, prefix)
    try {
      const total = 200
      await whenReady(redis, 5000)
      const relay = { batchSize: 100, redeliverAfterMs: 60_000 }
      const outbox = createOutbox(database.handle.db, queues, redis, relay)
      await inTransaction(database.handle.db, async (trx) => {
        for (let i = 0; i < total; i++) {
          await queueMail(trx, outbox, {
            to: `stopping-${i}@example.com`,
            subject: 'Thanks for visiting',
            text: `Mail ${i}`,
            html: `<p>Mail ${i}</p>`,
          })
        }
      })
      const first = startWorkerProcess(env)
      started.push(first)
      await expect
        .poll(() => smtp.received.length, { timeout: 45_000, interval: 20 })
        .toBeGreaterThanOrEqual(30)
      const exited = new Promise<number | null>((resolve) => first.child.once('exit', resolve))
      const sentAt = Date.now()
      first.child.kill('SIGTERM')
      const code = await exited
      const tookMs = Date.now() - sentAt
      const atStop = smtp.received.length
      console.info(`worker exit ${code} after ${tookMs} ms, ${atStop} of ${total} sent`)
      expect(tookMs).toBeLessThanOrEqual(10_000)
      expect(code, first.output()).toBe(0)
      expect(atStop).toBeLessThan(total)

      started.push(startWorkerProcess(env))
      const distinct = () => new Set(smtp.received.map((m) => m.to.join())).size
      await expect.poll(distinct, { timeout: 60_000, interval: 200 }).toBe(total)
      // The stopped worker finished what it had begun and recorded it: nothing goes out twice.
      await new Promise((r) => setTimeout(r, 1000))
      expect(smtp.received).toHaveLength(total)
    } finally {
      for (const p of started) await stop(p.child)
      await closeQueues(queues)
      redis.disconnect()
      await smtp.close()
    }
  }, 120_000)
})
