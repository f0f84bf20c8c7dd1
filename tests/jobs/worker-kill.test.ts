import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { queueMail } from '@porchlight/server/src/mail/queue-mail.ts'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildTestApp, TEST_SECRETS_KEY, type TestApp } from '../support/app.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

const serverDir = path.resolve(import.meta.dirname, '../../server')
const SENDS_AT_ONCE = 8
let t: TestApp
let smtp: SmtpSink
const workers: ChildProcess[] = []

/** A real worker process, as production runs it. */
function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/bin/worker.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: t.database.url,
      REDIS_URL: inject('redisUrl'),
      REDIS_KEY_PREFIX: t.config.redis.prefix,
      // Eight SMTP connections, so eight sends at once (the mail queue runs as many as the mailer has).
      SMTP_URL: `${smtp.url}?maxConnections=${SENDS_AT_ONCE}`,
      LOG_LEVEL: 'silent',
      SECRETS_KEY: TEST_SECRETS_KEY,
    },
    stdio: 'ignore',
  })
  workers.push(child)
  return child
}

beforeAll(async () => {
  smtp = await startSmtpSink({ delayMs: 15 })
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } })
})
afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL')
  await t.close()
  await smtp.close()
})

const distinct = () => new Set(smtp.received.map((m) => m.messageId)).size

describe('a worker killed mid-batch', () => {
  it('delivers every mail after a restart, repeating at most the sends in flight at the kill', async () => {
    const total = 120
    await inTransaction(t.db, async (trx) => {
      for (let i = 0; i < total; i++) {
        await queueMail(trx, t.app.deps.outbox, {
          to: `guest${i}@example.com`,
          subject: `Thank you ${i}`,
          text: `Mail ${i}`,
          html: `<p>Mail ${i}</p>`,
        })
      }
    })

    const first = startWorkerProcess()
    await expect
      .poll(() => smtp.received.length, { timeout: 30_000, interval: 20 })
      .toBeGreaterThanOrEqual(25)
    first.kill('SIGKILL')
    await new Promise((r) => first.once('exit', r))
    const atKill = smtp.received.length
    expect(atKill).toBeLessThan(total)

    startWorkerProcess()
    await expect.poll(distinct, { timeout: 45_000, interval: 200 }).toBe(total)

    // Sends cut off by the kill are picked up again once their locks lapse (BullMQ's stalled check).
    const sent = async () =>
      (await t.db.selectFrom('mail').select('id').where('status', '=', 'sent').execute()).length
    await expect.poll(sent, { timeout: 45_000, interval: 250 }).toBe(total)
    // Only a send the SMTP server accepted just before the kill, not yet recorded, can go twice; a
    // send holds its place in the worker until it is recorded, so at most SENDS_AT_ONCE. A repeat
    // carries the same Message-ID.
    const repeats = smtp.received.length - total
    console.info(`killed after ${atKill} accepted; repeats after restart: ${repeats}`)
    expect(repeats).toBeLessThanOrEqual(SENDS_AT_ONCE)
    expect(distinct()).toBe(total)
  }, 90_000)
})
