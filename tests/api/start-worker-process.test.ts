// `pnpm start` on PostgreSQL (DATABASE_URL, one API process): the workers run in a process of their own
// (the production worker entry), so mail keeps up with sign-ins. Mail queued as the API queues it is
// delivered by that process; one that dies is started again and delivers the next; SIGTERM stops both.
// The workers' process has precedence over the API's on a busy machine (a lower nice value, every thread
// of the API's process reniced), the one started again after a worker is killed too.
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { createOutbox } from '@porchlight/server/src/jobs/outbox.ts'
import { closeQueues, createQueues } from '@porchlight/server/src/jobs/queues.ts'
import { queueMail } from '@porchlight/server/src/mail/queue-mail.ts'
import { createRedis, whenReady } from '@porchlight/server/src/redis.ts'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { deleteKeys } from '../support/api.ts'
import { createTestDatabase, TEST_SECRETS_KEY, type TestDatabase } from '../support/app.ts'
import {
  childProcesses,
  freePort,
  PNPM_START_ARGS,
  priorities,
  type StartedProcess,
  startProcess,
  stop,
} from '../support/processes.ts'
import { startSmtpSink } from '../support/smtp.ts'

const root = path.resolve(import.meta.dirname, '../..')
const prefix = `k${randomBytes(5).toString('hex')}`
let database: TestDatabase
let started: StartedProcess
let smtp: Awaited<ReturnType<typeof startSmtpSink>>
let redis: ReturnType<typeof createRedis>
let queues: ReturnType<typeof createQueues>

beforeAll(async () => {
  database = await createTestDatabase()
  smtp = await startSmtpSink()
  redis = createRedis(inject('redisUrl'), 'command')
  queues = createQueues(redis, prefix)
  await whenReady(redis, 5000)
  const port = await freePort()
  started = startProcess('pnpm start', process.execPath, [...PNPM_START_ARGS], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      REDIS_URL: inject('redisUrl'),
      REDIS_KEY_PREFIX: prefix,
      SMTP_URL: smtp.url,
      SECRETS_KEY: TEST_SECRETS_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
  })
  await started.waitUntil('the banner', () => started.output().includes('Porchlight is running'), 100_000)
}, 150_000)

afterAll(async () => {
  if (started) await stop(started.child)
  await smtp?.close()
  if (queues) await closeQueues(queues)
  redis?.disconnect()
  await database?.drop()
  await deleteKeys(inject('redisUrl'), `${prefix}:*`)
}, 60_000)

/** The worker processes `pnpm start` runs (its Node children running bin/worker.ts). */
const workers = () => childProcesses(started.child.pid as number, 'bin/worker.ts')

/** The workers' process ahead of the API process (the child running start.ts the port's connections go to). */
function expectWorkerAhead(worker: number) {
  const api = childProcesses(started.child.pid as number, 'bin/start.ts')
  expect(api).toHaveLength(1)
  expect(priorities(worker, api)).toMatchObject({ workerAhead: true })
}

/** Mail written and handed to the queue as the API does it (mail row, outbox row, relay after commit). */
async function queue(to: string): Promise<void> {
  const outbox = createOutbox(database.handle.db, queues, redis, { batchSize: 100, redeliverAfterMs: 60_000 })
  await inTransaction(database.handle.db, (trx) =>
    queueMail(trx, outbox, { to, subject: 'Thanks for visiting', text: 'Hello', html: '<p>Hello</p>' }),
  )
}

it('runs the workers ahead of the API on a busy machine, a worker started again after a kill too', async () => {
  const [first] = workers()
  expect(first).toBeDefined()
  expectWorkerAhead(first as number)
  process.kill(first as number, 'SIGKILL')
  await started.waitUntil('another worker process', () => {
    const now = workers()
    return now.length === 1 && now[0] !== first
  })
  expectWorkerAhead(workers()[0] as number)
}, 60_000)

it('runs the workers in a process of their own, which delivers mail and is replaced if it dies', async () => {
  expect(started.output()).toContain('Workers:    a process of their own')
  const [first] = workers()
  expect(first).toBeDefined()
  await queue('first@example.com')
  await smtp.waitFor((m) => m.to.includes('first@example.com'), 1, 30_000)

  process.kill(first as number, 'SIGKILL')
  await started.waitUntil('another worker process', () => {
    const now = workers()
    return now.length === 1 && now[0] !== first
  })
  await queue('second@example.com')
  await smtp.waitFor((m) => m.to.includes('second@example.com'), 1, 30_000)

  // SIGTERM stops the API and its worker.
  const worker = workers()[0] as number
  await stop(started.child)
  expect(started.child.exitCode).toBe(0)
  expect(() => process.kill(worker, 0)).toThrow()
}, 120_000)
