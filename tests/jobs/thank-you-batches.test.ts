// A door's burst of consenting guests: each sign-in only marks its visit as owed a welcome, in its own
// statement, and the worker welcomes them in batches (decision 053): in one transaction per batch, each
// visit's opt-in in the ledger (at the moment of its sign-in), its unsubscribe token, its thank-you in send
// jobs of up to ten, its follow-up due two days after the sign-in. A batch that fails (its connection
// lost, or every visit of it failing) leaves nothing done and no visit blamed; two workers at once split
// the visits; every guest gets exactly one thank-you. One visit whose welcome fails by itself (the test
// makes the ledger refuse its address) is set aside, reported once and tried again later, while every
// other visit of its batch is welcomed in the same pass.
import { randomUUID } from 'node:crypto'
import type { Trx } from '@porchlight/server/src/db/transaction.ts'
import { backgroundFailures } from '@porchlight/server/src/failures.ts'
import { createBatches } from '@porchlight/server/src/jobs/batches.ts'
import { MAILS_PER_JOB } from '@porchlight/server/src/mail/queue-mail.ts'
import { FOLLOW_UP_DELAY_MS } from '@porchlight/server/src/modules/consent/service.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

let t: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({
    env: { SMTP_URL: smtp.url },
    configure: (config) => {
      config.rateLimit.guestPerMinute = 10_000
    },
  })
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})

const GUESTS = 25

async function signIn(openHouseId: number, email: string, emailConsent = true): Promise<number> {
  const res = await t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Gina',
      prospectLastName: 'Visitor',
      prospectEmailId: email,
      prospectPhoneNumber: '404 555 0123',
      openHouseId,
      clientRequestId: randomUUID(),
      emailConsent,
      consentText: emailConsent ? 'Email me about homes like this one.' : null,
    },
  })
  expect(res.status).toBe(201)
  return res.body.data.id
}

/** The send jobs written for mail: each job's mail ids. */
async function sendJobs(): Promise<number[][]> {
  const rows = await t.db
    .selectFrom('outbox')
    .select('payload')
    .where('queue', '=', 'mail')
    .where('jobName', '=', 'send')
    .execute()
  return rows.map((r) => {
    const p = r.payload as { mailIds?: number[]; mailId?: number }
    return (p.mailIds ?? [p.mailId ?? -1]).map(Number)
  })
}

/** A worker's pass of welcomes, ten visits to a batch, with `after` run inside each batch's transaction. */
const welcomePass = (after: (trx: Trx) => Promise<void> = async () => {}) => {
  const welcomes = t.app.deps.consent.welcomeGuests
  return createBatches({
    db: t.db,
    source: 'guest-welcome',
    size: 10,
    intervalMs: 1000,
    ...welcomes,
    work: async (trx, visits) => {
      await welcomes.work(trx, visits)
      await after(trx)
    },
  }).runOnce()
}

it('welcomes a burst of sign-ins in batches, each visit exactly once, dated by its sign-in', async () => {
  const agent = await makePlannedAgent(t.db, { firstName: 'Hana' })
  const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
  const emails = Array.from({ length: GUESTS }, (_, i) => `door-${i}-${randomUUID().slice(0, 8)}@example.com`)
  // An address that unsubscribed from this agent before: its consent is written down, and no mail goes.
  const gone = `gone-${randomUUID().slice(0, 8)}@example.com`
  await t.db
    .insertInto('consentEvent')
    .values({ reAgentId: agent.agent.id, email: gone, kind: 'email_opt_out', source: 'one_click' })
    .execute()
  const visits = await Promise.all([...emails, gone].map((email) => signIn(oh.id, email)))
  const declined = await signIn(oh.id, `no-${randomUUID().slice(0, 8)}@example.com`, false)

  // Each consenting visit is owed its welcome; nothing of it is written yet.
  const owed = await t.db.selectFrom('guestWelcome').select('attendeeId').execute()
  expect(owed.map((r) => Number(r.attendeeId)).sort((a, b) => a - b)).toEqual(
    [...visits].sort((a, b) => a - b),
  )
  const ledger = () =>
    t.db
      .selectFrom('consentEvent')
      .selectAll()
      .where('reAgentId', '=', agent.agent.id)
      .where('kind', '=', 'email_opt_in')
      .execute()
  expect(await ledger()).toEqual([])
  expect(await t.db.selectFrom('mail').select('id').where('toAddress', 'in', emails).execute()).toEqual([])

  // The worker comes later than the sign-ins: what it writes is dated by them, not by itself.
  await new Promise((r) => setTimeout(r, 1500))

  // A batch that fails after doing its work (its connection to PostgreSQL lost) leaves all of it undone,
  // and no visit is blamed for it: every one is owed as before, none set aside.
  await expect(
    welcomePass(async (trx) => {
      await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx)
    }),
  ).rejects.toThrow(/ECONNRESET|terminat/)
  expect(await ledger()).toEqual([])
  const kept = await t.db.selectFrom('guestWelcome').select(['attendeeId', 'attempts', 'retryAt']).execute()
  expect(kept).toHaveLength(visits.length)
  expect(kept.every((w) => w.attempts === 0 && w.retryAt === null)).toBe(true)
  // A failure of every visit of a batch (a bug, not one visit's data) fails the pass whole, too.
  await expect(
    welcomePass(async () => {
      throw new Error('the welcome is broken')
    }),
  ).rejects.toThrow('the welcome is broken')
  expect(await ledger()).toEqual([])
  expect(
    await t.db.selectFrom('guestWelcome').select('attendeeId').where('attempts', '=', 0).execute(),
  ).toHaveLength(visits.length)

  // Two workers at once: they split the visits.
  const [a, b] = await Promise.all([welcomePass(), welcomePass()])
  expect(a + b).toBe(visits.length)
  expect(await welcomePass()).toBe(0)
  expect(await t.db.selectFrom('guestWelcome').select('attendeeId').execute()).toEqual([])

  const signedIn = new Map(
    (
      await t.db
        .selectFrom('openHouseAttendee')
        .select(['prospectId', 'createdDate'])
        .where('id', 'in', [...visits, declined])
        .execute()
    ).map((v) => [Number(v.prospectId), new Date(v.createdDate).getTime()]),
  )
  // One opt-in per consenting visit, at its sign-in; the earlier unsubscribe is said, not overruled.
  const written = await ledger()
  expect(written).toHaveLength(visits.length)
  expect(new Set(written.map((e) => e.prospectId)).size).toBe(visits.length)
  for (const e of written) {
    expect(e.source).toBe('guest_sign_in')
    expect(new Date(e.at).getTime()).toBe(signedIn.get(Number(e.prospectId)))
    if (e.email === gone) expect(e.detail).toMatch(/; an earlier unsubscribe stands, no mail is sent$/)
    else expect(e.detail).not.toContain('unsubscribe')
  }

  // One thank-you per guest who may be mailed, ten at most to a send job, each mail in one job.
  const mails = await t.db
    .selectFrom('mail')
    .select(['id', 'toAddress', 'fromName', 'replyTo'])
    .where('toAddress', 'in', [...emails, gone])
    .execute()
  expect(mails.map((m) => m.toAddress).sort()).toEqual([...emails].sort())
  expect(mails.every((m) => m.fromName === `Hana ${agent.agent.reAgentLastName}`)).toBe(true)
  expect(mails.every((m) => m.replyTo === agent.agent.reAgentEmailId)).toBe(true)
  const jobs = await sendJobs()
  const ids = mails.map((m) => Number(m.id)).sort((x, y) => x - y)
  expect(
    jobs
      .flat()
      .map(Number)
      .filter((id) => ids.includes(id))
      .sort((x, y) => x - y),
  ).toEqual(ids)
  expect(jobs.every((job) => job.length <= MAILS_PER_JOB)).toBe(true)
  expect(jobs.length).toBeLessThanOrEqual(Math.ceil(GUESTS / MAILS_PER_JOB) + 2)

  // One follow-up per mailed guest, due two days after its sign-in (not after the worker ran).
  const followUps = await t.db
    .selectFrom('outbox')
    .select(['payload', 'runAt'])
    .where('jobName', '=', 'followUp')
    .where(sql<string>`payload->>'openHouseId'`, '=', String(oh.id))
    .execute()
  expect(followUps).toHaveLength(GUESTS)
  for (const f of followUps) {
    const prospectId = Number((f.payload as { prospectId: number }).prospectId)
    expect(new Date(f.runAt as Date).getTime()).toBe((signedIn.get(prospectId) ?? 0) + FOLLOW_UP_DELAY_MS)
  }

  // The worker sends each guest one thank-you.
  t.startWorker()
  await smtp.waitFor((m) => emails.some((e) => m.to.includes(e)), GUESTS, 30_000)
  await new Promise((r) => setTimeout(r, 500))
  for (const email of emails) {
    const got = smtp.received.filter((m) => m.to.includes(email))
    expect(got).toHaveLength(1)
    expect(got[0]?.subject).toMatch(/^Thank you for visiting/)
  }
  expect(smtp.received.filter((m) => m.to.includes(gone))).toHaveLength(0)
  const sent = await t.db
    .selectFrom('mail')
    .select(['status', 'attempts'])
    .where('toAddress', 'in', emails)
    .execute()
  expect(sent.every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true)
})

it('welcomes by itself: a sign-in while the worker runs gets its thank-you without anyone asking', async () => {
  const agent = await makePlannedAgent(t.db, { firstName: 'Ivo' })
  const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
  const email = `later-${randomUUID().slice(0, 8)}@example.com`
  await signIn(oh.id, email)
  const [got] = await smtp.waitFor((m) => m.to.includes(email), 1, 15_000)
  expect(got?.subject).toMatch(/^Thank you for visiting/)
})

it('sets aside the one visit whose welcome fails, welcomes the others in the same pass, and keeps going', async () => {
  const agent = await makePlannedAgent(t.db, { firstName: 'Jude' })
  const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
  const tag = randomUUID().slice(0, 8)
  const bad = `bad-${tag}@example.com`
  // The ledger refuses this one guest's address (as a constraint its stored data breaks would).
  await sql`create function refuse_one_guest() returns trigger language plpgsql as $$
    begin
      if new.email = ${sql.lit(bad)} then raise exception 'this address cannot be written down'; end if;
      return new;
    end $$`.execute(t.db)
  await sql`create trigger refuse_one_guest before insert on consent_event
    for each row execute function refuse_one_guest()`.execute(t.db)
  const reported = () => backgroundFailures.counts()['guest-welcome'] ?? 0
  const before = reported()

  // The bad visit sits in the middle of one batch, with consenting guests before and after it.
  const emails = Array.from({ length: 12 }, (_, i) => `around-${i}-${tag}@example.com`)
  const ids = await Promise.all(emails.slice(0, 6).map((email) => signIn(oh.id, email)))
  const badVisit = await signIn(oh.id, bad)
  ids.push(...(await Promise.all(emails.slice(6).map((email) => signIn(oh.id, email)))))

  // Every other guest gets exactly one thank-you.
  await smtp.waitFor((m) => emails.some((e) => m.to.includes(e)), emails.length, 15_000)
  // A few more passes of the worker (every 200 ms) change nothing.
  await new Promise((r) => setTimeout(r, 1000))
  for (const email of emails) expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1)
  expect(smtp.received.filter((m) => m.to.includes(bad))).toHaveLength(0)
  const ledger = await t.db
    .selectFrom('consentEvent')
    .select('email')
    .where('reAgentId', '=', agent.agent.id)
    .execute()
  expect(ledger.map((e) => e.email).sort()).toEqual([...emails].sort())

  // The bad visit is set aside, not taken again every pass: tried again in a minute, its error kept,
  // and reported once.
  const owed = await t.db
    .selectFrom('guestWelcome')
    .select(['attendeeId', 'attempts', 'retryAt', 'lastError'])
    .where('attendeeId', 'in', [...ids, badVisit])
    .execute()
  expect(owed.map((w) => Number(w.attendeeId))).toEqual([badVisit])
  expect(owed[0]?.attempts).toBe(1)
  expect(owed[0]?.lastError).toBe('this address cannot be written down')
  const retryIn = new Date(owed[0]?.retryAt as Date).getTime() - Date.now()
  expect(retryIn).toBeGreaterThan(30_000)
  expect(retryIn).toBeLessThanOrEqual(60_000)
  expect(reported() - before).toBe(1)

  // The passes do not stall: a guest signing in afterwards is welcomed as usual.
  const later = `later-${tag}@example.com`
  await signIn(oh.id, later)
  await smtp.waitFor((m) => m.to.includes(later), 1, 15_000)

  // Failing at its last try (the fifth), it is left for an operator, and reported again.
  await t.db
    .updateTable('guestWelcome')
    .set({ attempts: 4, retryAt: new Date() })
    .where('attendeeId', '=', badVisit)
    .execute()
  const parked = () =>
    t.db
      .selectFrom('guestWelcome')
      .select(['attempts', sql<boolean>`retry_at = 'infinity'`.as('leftForOperator')])
      .where('attendeeId', '=', badVisit)
      .execute()
  await expect.poll(parked).toEqual([{ attempts: 5, leftForOperator: true }])
  expect(reported() - before).toBe(2)

  // Its data mended, the operator sends it on its way (retry_at null): it is welcomed, once.
  await sql`drop trigger refuse_one_guest on consent_event`.execute(t.db)
  await t.db.updateTable('guestWelcome').set({ retryAt: null }).where('attendeeId', '=', badVisit).execute()
  await smtp.waitFor((m) => m.to.includes(bad), 1, 15_000)
  await new Promise((r) => setTimeout(r, 500))
  expect(smtp.received.filter((m) => m.to.includes(bad))).toHaveLength(1)
  expect(
    await t.db.selectFrom('guestWelcome').select('attendeeId').where('attendeeId', '=', badVisit).execute(),
  ).toEqual([])
  expect(reported() - before).toBe(2)
})
