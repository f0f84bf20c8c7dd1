import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { queueMail } from '@porchlight/server/src/mail/queue-mail.ts'
import { Redis } from 'ioredis'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { daysFromNow, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type OwnRedis, startOwnRedis } from '../support/redis-server.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

// PostgreSQL is the record of what is still to do: a Redis that loses its data loses no work. The Redis
// here is the test's own, started, stopped and wiped by it.
let redis: OwnRedis
let smtp: SmtpSink
const apps: TestApp[] = []

beforeAll(async () => {
  redis = await startOwnRedis()
  smtp = await startSmtpSink()
})
afterAll(async () => {
  for (const t of apps) await t.close()
  await smtp.close()
  await redis.stop()
})

async function appOnOwnRedis(redeliverAfterMs?: number, redisPrefix?: string): Promise<TestApp> {
  const t = await buildTestApp({
    env: { REDIS_URL: redis.url, SMTP_URL: smtp.url },
    configure: (config) => {
      if (redeliverAfterMs) config.relay.redeliverAfterMs = redeliverAfterMs
      if (redisPrefix) config.redis.prefix = redisPrefix
    },
  })
  apps.push(t)
  return t
}

/** `count` mails, each to its own address, written as the product writes them (mail row + outbox row). */
async function queueMails(t: TestApp, tag: string, count: number): Promise<string[]> {
  const addresses = Array.from({ length: count }, (_, i) => `${tag}-${i}@example.com`)
  for (const to of addresses) {
    await inTransaction(t.db, (trx) =>
      queueMail(trx, t.app.deps.outbox, {
        to,
        subject: 'Thanks for visiting',
        text: 'Hello',
        html: '<p>Hello</p>',
      }),
    )
  }
  return addresses
}

/** Mail rows of the outbox not yet relayed ('relayedAt') or not yet done ('doneAt'). */
async function mailRowsWithout(t: TestApp, column: 'relayedAt' | 'doneAt'): Promise<number> {
  const rows = await t.db
    .selectFrom('outbox')
    .select('id')
    .where('queue', '=', 'mail')
    .where(column, 'is', null)
    .execute()
  return rows.length
}

async function allHandedToRedis(t: TestApp): Promise<void> {
  await expect.poll(() => mailRowsWithout(t, 'relayedAt'), { timeout: 15_000 }).toBe(0)
  expect((await t.app.deps.queues.mail.getJobCounts('waiting')).waiting).toBeGreaterThan(0)
}

async function expectEachDeliveredOnce(t: TestApp, addresses: string[]): Promise<void> {
  const wanted = new Set(addresses)
  await smtp.waitFor((m) => m.to.some((a) => wanted.has(a)), addresses.length, 30_000)
  // Every row is done, and a moment later still nothing went out twice.
  await expect.poll(() => mailRowsWithout(t, 'doneAt'), { timeout: 10_000 }).toBe(0)
  await new Promise((r) => setTimeout(r, 1000))
  for (const to of addresses)
    expect(
      smtp.received.filter((m) => m.to.includes(to)),
      to,
    ).toHaveLength(1)
}

describe('Redis losing its data', () => {
  it('delivers every mail once and still makes the auto-clone after Redis restarts empty', async () => {
    const t = await appOnOwnRedis()
    const listing = await makePlannedAgent(t.db)
    // An auto-clone five days ahead waits in PostgreSQL, not in Redis.
    const oh = await scheduleOpenHouse(t, listing, {
      autoCloneOpenHouseFlag: 'true',
      scheduledDate: daysFromNow(5),
    })
    // No worker yet: the mails are handed to BullMQ and sit there, as when the workers fall behind.
    const addresses = await queueMails(t, 'restart', 100)
    await allHandedToRedis(t)
    const clone = await t.db
      .selectFrom('outbox')
      .select(['id', 'relayedAt'])
      .where('queue', '=', 'auto-clone')
      .executeTakeFirstOrThrow()
    expect(clone.relayedAt).toBeNull()
    expect(await t.app.deps.queues['auto-clone'].getJobCounts()).toMatchObject({ delayed: 0, waiting: 0 })

    await redis.stop()
    await redis.start()
    t.startWorker()
    await expectEachDeliveredOnce(t, addresses)

    // Five days later (moved here): the open house ended, its clone job is due, and the clone is made.
    const ended = new Date(Date.now() - 3_600_000)
    await t.db
      .updateTable('openHouse')
      .set({ scheduledDate: daysFromNow(0), startsAt: new Date(ended.getTime() - 7_200_000), endsAt: ended })
      .where('id', '=', oh.id)
      .execute()
    await t.db.updateTable('outbox').set({ runAt: ended }).where('id', '=', clone.id).execute()
    await expect
      .poll(
        async () =>
          (
            await t.db
              .selectFrom('openHouse')
              .select('id')
              .where('autoCloneOfOpenHouseId', '=', oh.id)
              .execute()
          ).length,
        { timeout: 15_000 },
      )
      .toBe(1)
    await expect
      .poll(
        async () =>
          (
            await t.db
              .selectFrom('outbox')
              .select('doneAt')
              .where('id', '=', clone.id)
              .executeTakeFirstOrThrow()
          ).doneAt,
      )
      .not.toBeNull()
  }, 90_000)

  it('hands unfinished work over again when Redis lost it without dropping the connection', async () => {
    const t = await appOnOwnRedis(1000)
    const addresses = await queueMails(t, 'flushed', 20)
    await allHandedToRedis(t)
    const own = new Redis(redis.url)
    try {
      await own.flushall()
    } finally {
      own.disconnect()
    }
    t.startWorker()
    await expectEachDeliveredOnce(t, addresses)
  }, 60_000)

  it("runs the jobs of a database made anew against the Redis that ran the old one's", async () => {
    // A database restored from a backup, or made again, counts its outbox ids again from where it
    // stood, while Redis keeps the old database's completed jobs for a week.
    const before = await appOnOwnRedis()
    const first = await queueMails(before, 'old-database', 10)
    before.startWorker()
    await expectEachDeliveredOnce(before, first)
    const oldIds = await before.db.selectFrom('outbox').select('id').orderBy('id').execute()
    expect((await before.app.deps.queues.mail.getJobCounts('completed')).completed).toBe(10)
    apps.splice(apps.indexOf(before), 1)
    await before.close()

    const after = await appOnOwnRedis(undefined, before.config.redis.prefix)
    const second = await queueMails(after, 'new-database', 10)
    // The same ids as the jobs Redis already ran.
    expect(await after.db.selectFrom('outbox').select('id').orderBy('id').execute()).toEqual(oldIds)
    after.startWorker()
    await expectEachDeliveredOnce(after, second)
  }, 60_000)

  it('still runs and closes a row written before rows had keys', async () => {
    const t = await appOnOwnRedis()
    const id = await inTransaction(t.db, async (trx) => {
      await queueMail(trx, t.app.deps.outbox, {
        to: 'unkeyed@example.com',
        subject: 'Hi',
        text: 'Hi',
        html: '<p>Hi</p>',
      })
      const row = await trx.selectFrom('outbox').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()
      await sql`update outbox set job_key = null where id = ${row.id}`.execute(trx)
      return row.id
    })
    await allHandedToRedis(t)
    expect(await t.app.deps.queues.mail.getJob(`outbox-${id}`)).toBeDefined()
    t.startWorker()
    await expectEachDeliveredOnce(t, ['unkeyed@example.com'])
  }, 60_000)
})
