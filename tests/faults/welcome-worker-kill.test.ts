// Consenting guests' welcomes are done by the worker in batches, one transaction each (decision 053). A
// worker process killed (SIGKILL) in the middle of a batch, then two workers started at once: every visit
// gets exactly one opt-in in the ledger, one thank-you at a real SMTP receiver, and one follow-up.
// The test holds a lock on the consent ledger so that the first worker is surely mid-batch when it is
// killed: it has taken its visits (their marks deleted, not committed) and waits to write their opt-ins.

import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { startWorkerProcess } from '../support/porchlight-processes.ts'
import { type StartedProcess, stop } from '../support/processes.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

const GUESTS = 150

let t: TestApp
let smtp: SmtpSink
const workers: StartedProcess[] = []

const worker = () => {
  const started = startWorkerProcess({
    DATABASE_URL: t.database.url,
    REDIS_URL: inject('redisUrl'),
    REDIS_KEY_PREFIX: t.config.redis.prefix,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
  })
  workers.push(started)
  return started
}

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({
    configure: (config) => {
      config.rateLimit.guestPerMinute = 100_000
      config.rateLimit.max = 100_000
    },
  })
})
afterAll(async () => {
  await Promise.all(workers.map((w) => stop(w.child)))
  await t?.close()
  await smtp?.close()
})

describe('a worker killed in the middle of a batch of welcomes', () => {
  it('welcomes every consenting guest exactly once after a restart, with two workers racing', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Wren' })
    const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
    const emails: string[] = []
    const consent = { emailConsent: true, consentText: 'Email me about homes like this one.' }
    for (let i = 0; i < GUESTS; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const body = { ...guestFields(oh.id, consent), clientRequestId: randomUUID() }
          const res = await t.call('POST', '/public/saveProspect', { body })
          expect(res.status).toBe(201)
          emails.push(body.prospectEmailId)
        }),
      )
    }

    // The ledger is locked against writes: the first worker's batch takes its visits and waits there.
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let locked = () => {}
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve
    })
    const holding = t.db.transaction().execute(async (trx) => {
      await sql`lock table consent_event in share mode`.execute(trx)
      locked()
      await released
    })
    await isLocked
    const first = worker()
    const blocked = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'
          and query ilike '%insert into "consent_event"%'`.execute(t.db)
      ).rows[0]?.n ?? 0
    await first.waitUntil('a batch waiting to write its opt-ins', async () => (await blocked()) > 0, 60_000)
    // Mid-batch: its visits are taken (uncommitted), nothing of their welcome is written.
    const owed = await t.db.selectFrom('guestWelcome').select('attendeeId').execute()
    expect(owed).toHaveLength(GUESTS)
    first.child.kill('SIGKILL')
    await new Promise((r) => first.child.once('exit', r))
    release()
    await holding

    // Two workers at once, as after a redeploy.
    worker()
    worker()
    await smtp.waitFor((m) => emails.some((e) => m.to.includes(e)), GUESTS, 120_000)
    await expect
      .poll(async () => (await t.db.selectFrom('guestWelcome').select('attendeeId').execute()).length, {
        timeout: 30_000,
      })
      .toBe(0)
    await new Promise((r) => setTimeout(r, 2000))

    for (const email of emails) {
      const got = smtp.received.filter((m) => m.to.includes(email))
      expect(got, email).toHaveLength(1)
      expect(got[0]?.subject).toMatch(/^Thank you for visiting/)
    }
    const ledger = await t.db
      .selectFrom('consentEvent')
      .select(['prospectId', 'kind'])
      .where('reAgentId', '=', agent.agent.id)
      .execute()
    expect(ledger).toHaveLength(GUESTS)
    expect(ledger.every((e) => e.kind === 'email_opt_in')).toBe(true)
    expect(new Set(ledger.map((e) => e.prospectId)).size).toBe(GUESTS)
    const followUps = await t.db
      .selectFrom('outbox')
      .select(sql<string>`payload->>'prospectId'`.as('prospectId'))
      .where('jobName', '=', 'followUp')
      .where(sql<string>`payload->>'openHouseId'`, '=', String(oh.id))
      .execute()
    expect(followUps).toHaveLength(GUESTS)
    expect(new Set(followUps.map((f) => f.prospectId)).size).toBe(GUESTS)
    const mails = await t.db.selectFrom('mail').select('status').where('toAddress', 'in', emails).execute()
    expect(mails).toHaveLength(GUESTS)
    // Each one sent (a connection that timed out on a loaded machine may have cost it a second try, but
    // the receiver took each once, above).
    expect(mails.filter((m) => m.status !== 'sent')).toEqual([])
  }, 240_000)
})
