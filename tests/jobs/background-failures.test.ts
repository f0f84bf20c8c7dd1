import { inTransaction, onCommit } from '@porchlight/server/src/db/transaction.ts'
import { queueMail } from '@porchlight/server/src/mail/queue-mail.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t.close()
})

/** What an operator reads on GET /api/ready: failures of work done after the answer, per source. */
async function failures(): Promise<Record<string, number>> {
  const res = await t.call('GET', '/ready')
  expect(res.status).toBe(200)
  return res.body.data.backgroundFailures
}

describe('background failures', () => {
  it('parks an outbox row this build cannot deliver, relays the rows behind it, and counts it', async () => {
    const before = (await failures())['outbox-parked'] ?? 0
    // A row written by another version (a queue since renamed) sits first in line.
    await t.db
      .insertInto('outbox')
      .values({ queue: 'retired-queue', jobName: 'send', payload: JSON.stringify({}) })
      .execute()
    await t.db
      .insertInto('outbox')
      .values({ queue: 'mail', jobName: 'no-such-job', payload: JSON.stringify({}) })
      .execute()
    const mailId = await inTransaction(t.db, (trx) =>
      queueMail(trx, t.app.deps.outbox, {
        to: 'behind-the-poison@example.com',
        subject: 'Still delivered',
        text: 'text',
        html: '<p>text</p>',
      }),
    )
    // The commit kicked a relay; another one runs beside it (skip-locked shares the rows).
    await t.app.deps.outbox.relayOnce()
    const outbox = () =>
      t.db
        .selectFrom('outbox')
        .select(['queue', 'jobName', 'relayedAt', 'parkedAt', 'parkedReason', 'payload'])
        .orderBy('id')
        .execute()
    await expect
      .poll(async () => (await outbox()).filter((r) => r.relayedAt === null && r.parkedAt === null))
      .toEqual([])
    const rows = await outbox()
    const poison = rows.filter((r) => r.parkedAt !== null)
    expect(poison.map((r) => r.parkedReason)).toEqual([
      'unknown queue retired-queue',
      'unknown job no-such-job in queue mail',
    ])
    expect(poison.every((r) => r.relayedAt === null)).toBe(true)
    const mailRow = rows.find((r) => (r.payload as { mailIds?: number[] }).mailIds?.includes(mailId))
    expect(mailRow?.relayedAt).not.toBeNull()
    expect((await failures())['outbox-parked']).toBe(before + 2)

    // Parked rows are not picked up again.
    await t.app.deps.outbox.relayOnce()
    expect((await failures())['outbox-parked']).toBe(before + 2)
  })

  it('counts an after-commit step that fails, and keeps the committed change', async () => {
    const before = (await failures())['after-commit'] ?? 0
    const value = await inTransaction(t.db, async (trx) => {
      onCommit(trx, () => {
        throw new Error('socket server away')
      })
      return (await sql<{ n: number }>`select 1 as n`.execute(trx)).rows[0]?.n
    })
    expect(value).toBe(1)
    expect((await failures())['after-commit']).toBe(before + 1)
  })
})
