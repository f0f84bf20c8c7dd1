// `pnpm start` on PostgreSQL with two API processes (WEB_CONCURRENCY=2) and the workers' process under
// its supervisor, while guests sign in at several doors: PostgreSQL crashes and comes back, then Redis
// restarts empty. Nobody restarts anything: the supervisor, both API processes and the workers' process
// are the same processes afterwards, a sign-in caught by an outage is refused with 503 and Retry-After in
// the contract's shape (and taken when the kiosk sends it again), every acknowledged sign-in's thank-you
// reaches the guest once, and SIGTERM still stops them all. The PostgreSQL and the Redis are the test's own.
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { createPostgresDb, type DbHandle } from '@porchlight/server/src/db/database.ts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { apiCaller } from '../support/api.ts'
import { TEST_SECRETS_KEY } from '../support/app.ts'
import {
  consent,
  expectEachDeliveredOnce,
  expectRefusedToRetry,
  guestsSigningIn,
  pause,
  signInAt,
} from '../support/door-traffic.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { isReady } from '../support/porchlight-processes.ts'
import { type OwnPostgres, startOwnPostgres } from '../support/postgres-server.ts'
import {
  childProcesses,
  freePort,
  PNPM_START_ARGS,
  type StartedProcess,
  startProcess,
  stop,
} from '../support/processes.ts'
import { type OwnRedis, startOwnRedis } from '../support/redis-server.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

const root = path.resolve(import.meta.dirname, '../..')
let postgres: OwnPostgres
let redis: OwnRedis
let smtp: SmtpSink
let handle: DbHandle
let started: StartedProcess
let origin: string

beforeAll(async () => {
  ;[postgres, redis, smtp] = await Promise.all([startOwnPostgres(), startOwnRedis(), startSmtpSink()])
  handle = createPostgresDb(postgres.url, 2)
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  started = startProcess('pnpm start', process.execPath, [...PNPM_START_ARGS], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: 'warn',
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: `s${randomBytes(5).toString('hex')}`,
      SMTP_URL: smtp.url,
      SECRETS_KEY: TEST_SECRETS_KEY,
      WEB_CONCURRENCY: '2',
      GUEST_RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_MAX: '100000',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
    },
  })
  await started.waitUntil('the banner', () => started.output().includes('Porchlight is running'), 120_000)
  await started.waitUntil('a ready answer', () => isReady(origin), 60_000)
}, 180_000)

afterAll(async () => {
  if (started) await stop(started.child)
  await handle?.close()
  await postgres?.remove()
  await smtp?.close()
  await redis?.stop()
}, 60_000)

/** The supervisor's children: its API processes (forks running start.ts) and its workers' process. */
const children = () => {
  const supervisor = started.child.pid as number
  return {
    api: childProcesses(supervisor, 'bin/start.ts').sort(),
    worker: childProcesses(supervisor, 'bin/worker.ts'),
  }
}

it('keeps every process of pnpm start up through a PostgreSQL crash and a Redis restart, and thanks each guest once', async () => {
  const before = children()
  expect(before.api).toHaveLength(2)
  expect(before.worker).toHaveLength(1)
  const agent = await makePlannedAgent(handle.db)
  const oh = await scheduleOpenHouse({ call: apiCaller(origin) }, agent, { publishLevel: 'Hosting Myself' })

  const doors = guestsSigningIn(origin, 4, () => guestFields(oh.id, consent))
  await pause(1500)
  await postgres.restart('immediate')
  await expect.poll(() => isReady(origin), { timeout: 30_000, interval: 200 }).toBe(true)
  await pause(1500)
  await redis.stop()
  await pause(2000)
  await redis.start()
  await expect.poll(() => isReady(origin), { timeout: 30_000, interval: 200 }).toBe(true)
  await pause(1500)
  const attempts = await doors.stop()

  expect(started.child.exitCode, started.output()).toBeNull()
  expect(children(), started.output()).toEqual(before)
  expect(started.output()).not.toContain('starting another')
  const refused = attempts.filter((a) => a.status !== 201)
  console.info(`${attempts.length} sign-ins under pnpm start, ${refused.length} refused during the outages`)
  expect(attempts.length - refused.length).toBeGreaterThan(10)
  for (const a of refused) expectRefusedToRetry(a)
  // A kiosk sends a refused sign-in again with the same request id: now it is taken.
  for (const a of refused) expect((await signInAt(origin, a.body)).status).toBe(201)

  await expectEachDeliveredOnce(
    attempts.map((a) => a.body.prospectEmailId),
    { mails: (email) => smtp.received.filter((m) => m.to.includes(email)).length },
  )

  // SIGTERM still stops the supervisor and everything it runs.
  const all = [...before.api, ...before.worker]
  await stop(started.child)
  expect(started.child.exitCode).toBe(0)
  for (const pid of all) expect(() => process.kill(pid, 0)).toThrow()
}, 240_000)
