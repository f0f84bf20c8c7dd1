// PostgreSQL restarted under the production processes while guests sign in: the API and the worker
// stay up, a request caught by a restart is refused with 503 and Retry-After in the API's error
// shape, and every sign-in the API acknowledged reaches the guest (mail), the agent's webhook and
// Follow Up Boss exactly once. Redis restarted empty: the same processes stay up. The PostgreSQL and
// the Redis here are the test's own.
import { randomBytes, randomUUID } from 'node:crypto'
import { createPostgresDb, type DbHandle } from '@porchlight/server/src/db/database.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCaller } from '../support/api.ts'
import {
  consent,
  expectEachDeliveredOnce as expectDeliveredOnce,
  expectRefusedToRetry,
  guestsSigningIn,
  pause,
  signInAt,
} from '../support/door-traffic.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import {
  type ApiProcess,
  isReady,
  startApiProcess,
  startWorkerProcess,
} from '../support/porchlight-processes.ts'
import { type OwnPostgres, type StopMode, startOwnPostgres } from '../support/postgres-server.ts'
import { type StartedProcess, stop } from '../support/processes.ts'
import { type OwnRedis, startOwnRedis } from '../support/redis-server.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts'

const prefix = `f${randomBytes(5).toString('hex')}`
const GUESTS_AT_ONCE = 6
let postgres: OwnPostgres
let redis: OwnRedis
let handle: DbHandle
let smtp: SmtpSink
let hooks: Receiver
let fub: Receiver
let api: ApiProcess
let worker: StartedProcess

beforeAll(async () => {
  ;[postgres, redis, smtp, hooks, fub] = await Promise.all([
    startOwnPostgres(),
    startOwnRedis(),
    startSmtpSink(),
    startReceiver(),
    startReceiver(),
  ])
  handle = createPostgresDb(postgres.url, 2)
  const env = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: prefix,
    SMTP_URL: smtp.url,
    FUB_API_URL: fub.url,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    GUEST_RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_MAX: '100000',
    LOG_LEVEL: 'warn',
  }
  api = await startApiProcess(env)
  worker = startWorkerProcess(env)
}, 120_000)

afterAll(async () => {
  await Promise.all([api && stop(api.child), worker && stop(worker.child)])
  await handle?.close()
  await postgres?.remove()
  await Promise.all([smtp?.close(), hooks?.close(), fub?.close()])
  await redis?.stop()
}, 60_000)

const signIn = (body: ReturnType<typeof guestFields>) => signInAt(api.origin, body)

/** An agent whose guests' sign-ins go to its webhook endpoint and its Follow Up Boss; its open house. */
async function hostWithIntegrations() {
  const call = apiCaller(api.origin)
  const agent = await makePlannedAgent(handle.db)
  const endpoint = await call('POST', '/webhookmgmt/saveWebhookEndpoint', {
    token: agent.token,
    body: { url: `${hooks.url}/crm`, events: ['prospect.created'], description: 'CRM' },
  })
  expect(endpoint.status).toBe(201)
  const connector = await call('POST', '/webhookmgmt/saveFubConnector', {
    token: agent.token,
    body: { apiKey: `fub_${randomUUID().replaceAll('-', '')}` },
  })
  expect(connector.status).toBe(200)
  const oh = await scheduleOpenHouse({ call }, agent, { publishLevel: 'Hosting Myself' })
  return { agent, oh }
}

const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email)).length
const postsOf = (r: Receiver, email: string) => r.received.filter((p) => p.body.includes(email)).length

/** Each guest got one mail, and one webhook and one Follow Up Boss post went out for each. */
const expectEachDeliveredOnce = (emails: string[]) =>
  expectDeliveredOnce(emails, {
    mails: mailsTo,
    webhooks: (email) => postsOf(hooks, email),
    fub: (email) => postsOf(fub, email),
  })

describe('PostgreSQL restarted under mixed traffic', () => {
  it('keeps both processes up through a fast and an immediate restart, and delivers each acknowledged sign-in once', async () => {
    const { agent, oh } = await hostWithIntegrations()
    // Guests at several doors at once, each signing in one after another, until told to stop.
    const doors = guestsSigningIn(api.origin, GUESTS_AT_ONCE, () => guestFields(oh.id, consent))
    const restartUnderLoad = async (mode: StopMode) => {
      await pause(1500)
      await postgres.restart(mode)
      // Back by itself: nobody restarts the API or the worker.
      await expect.poll(() => isReady(api.origin), { timeout: 30_000, interval: 200 }).toBe(true)
      await pause(1500)
    }
    await restartUnderLoad('fast')
    await restartUnderLoad('immediate')
    const attempts = await doors.stop()

    expect(api.child.exitCode, api.output()).toBeNull()
    expect(worker.child.exitCode, worker.output()).toBeNull()
    // Every request had an answer: the sign-in, or a refusal to retry later in the contract's shape.
    const refused = attempts.filter((a) => a.status !== 201)
    console.info(`${attempts.length} sign-ins, ${refused.length} refused during the restarts`)
    expect(refused.length).toBeGreaterThan(0)
    for (const a of refused) expectRefusedToRetry(a)
    // A kiosk sends a refused sign-in again with the same request id: now it is taken.
    for (const a of refused) {
      const again = await signIn(a.body)
      expect(again.status).toBe(201)
    }

    await expectEachDeliveredOnce(attempts.map((a) => a.body.prospectEmailId))

    // The API hears the database's access changes again (it missed them while it was down): a session
    // ended in the database is refused at once, not kept for SESSION_CACHE_MS.
    const listening = async () =>
      (
        await sql<{
          n: number
        }>`select count(*)::int as n from pg_stat_activity where query ilike 'listen%'`.execute(handle.db)
      ).rows[0]?.n
    await expect.poll(listening, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
    const connectorOf = () =>
      apiCaller(api.origin)('GET', '/webhookmgmt/getFubConnector', { token: agent.token })
    expect((await connectorOf()).status).toBe(200)
    expect((await connectorOf()).status).toBe(200)
    await handle.db.deleteFrom('session').where('userId', '=', agent.user.id).execute()
    await expect.poll(async () => (await connectorOf()).status, { timeout: 2000, interval: 100 }).toBe(403)
  }, 240_000)

  it('records a mail, a webhook and a Follow Up Boss post answered while it was down, and sends none again', async () => {
    const { oh } = await hostWithIntegrations()
    const guest = guestFields(oh.id, consent)
    const email = guest.prospectEmailId
    const mailsBefore = smtp.arrivedCount()
    // The mail server and both receivers take 4 s to answer: PostgreSQL goes down while they do.
    for (const slow of [smtp, hooks, fub]) slow.setDelay(4000)
    try {
      expect((await signIn(guest)).status).toBe(201)
      const allOut = () =>
        smtp.arrivedCount() > mailsBefore && postsOf(hooks, email) + postsOf(fub, email) === 2
      await expect.poll(allOut, { timeout: 15_000, interval: 50 }).toBe(true)
      const outAt = Date.now()
      await postgres.stop('fast')
      // Meanwhile the API says what is down, and when to ask again.
      const ready = await fetch(`${api.origin}/api/ready`)
      expect(ready.status).toBe(503)
      expect(Number(ready.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await ready.json()).toEqual({
        error: { code: 'NOT_READY', message: 'PostgreSQL is not answering' },
      })
      await pause(outAt + 5000 - Date.now())
      await postgres.start()
      await expect.poll(() => isReady(api.origin), { timeout: 30_000, interval: 200 }).toBe(true)
    } finally {
      for (const slow of [smtp, hooks, fub]) slow.setDelay(0)
    }
    // What went out while the database was away is recorded once it is back, not left to be sent again.
    const state = async () => ({
      mail: (
        await handle.db.selectFrom('mail').select('status').where('toAddress', '=', email).execute()
      ).map((m) => m.status),
      open: (
        await handle.db
          .selectFrom('outbox')
          .select('id')
          .where('doneAt', 'is', null)
          .where((eb) => eb.or([eb('runAt', 'is', null), eb('runAt', '<=', new Date())]))
          .execute()
      ).length,
    })
    await expect.poll(state, { timeout: 15_000, interval: 250 }).toEqual({ mail: ['sent'], open: 0 })
    expect(worker.child.exitCode, worker.output()).toBeNull()
    await expectEachDeliveredOnce([email])
  }, 120_000)

  it('keeps both processes up while Redis restarts empty, and delivers what is signed in meanwhile', async () => {
    const { oh } = await hostWithIntegrations()
    await redis.stop()
    const ready = await fetch(`${api.origin}/api/ready`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toEqual({ error: { code: 'NOT_READY', message: 'Redis is not answering' } })
    // PostgreSQL still answers: guests still sign in; their work waits in the outbox.
    const during = guestFields(oh.id, consent)
    expect((await signIn(during)).status).toBe(201)
    await redis.start()
    await expect.poll(() => isReady(api.origin), { timeout: 30_000, interval: 200 }).toBe(true)
    const after = guestFields(oh.id, consent)
    expect((await signIn(after)).status).toBe(201)
    expect(api.child.exitCode, api.output()).toBeNull()
    expect(worker.child.exitCode, worker.output()).toBeNull()
    await expectEachDeliveredOnce([during.prospectEmailId, after.prospectEmailId])
  }, 120_000)
})
