// A door's burst of consenting guests: each sign-in writes its thank-you without a send job, and the
// worker gathers them several to a job (decision 045). Every guest still gets exactly one thank-you,
// each mail claimed, leased and marked on its own, even when two workers gather at the same moment.
import { randomUUID } from 'node:crypto'
import { createMailer } from '@porchlight/server/src/mail/mailer.ts'
import { MAILS_PER_JOB } from '@porchlight/server/src/mail/queue-mail.ts'
import { createMailRetries } from '@porchlight/server/src/mail/retries.ts'
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

async function signIn(openHouseId: number, email: string) {
  const res = await t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Gina',
      prospectLastName: 'Visitor',
      prospectEmailId: email,
      prospectPhoneNumber: '404 555 0123',
      openHouseId,
      clientRequestId: randomUUID(),
      emailConsent: true,
      consentText: 'Email me about homes like this one.',
    },
  })
  expect(res.status).toBe(201)
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

it('sends a burst of sign-ins their thank-yous several to a job, each exactly once', async () => {
  const agent = await makePlannedAgent(t.db, { firstName: 'Hana' })
  const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
  const emails = Array.from({ length: GUESTS }, (_, i) => `door-${i}-${randomUUID().slice(0, 8)}@example.com`)
  await Promise.all(emails.map((email) => signIn(oh.id, email)))

  // Written and waiting for a job: no send job of their own.
  const written = await t.db
    .selectFrom('mail')
    .select(['id', 'status', 'waitingFor'])
    .where('toAddress', 'in', emails)
    .execute()
  expect(written).toHaveLength(GUESTS)
  expect(written.every((m) => m.status === 'queued' && m.waitingFor === 'job')).toBe(true)
  expect(await sendJobs()).toEqual([])

  // Two workers gather at the same moment: each mail lands in one job, ten at most to a job.
  const retries = () =>
    createMailRetries({
      db: t.db,
      outbox: t.app.deps.outbox,
      mailer: createMailer(t.config),
      config: t.config.mailRetry,
    })
  const [a, b] = await Promise.all([retries().gatherOnce(), retries().gatherOnce()])
  expect(a + b).toBe(GUESTS)
  const jobs = await sendJobs()
  const ids = written.map((m) => Number(m.id)).sort((x, y) => x - y)
  expect(
    jobs
      .flat()
      .map(Number)
      .sort((x, y) => x - y),
  ).toEqual(ids)
  expect(jobs.every((job) => job.length <= MAILS_PER_JOB)).toBe(true)
  expect(jobs.length).toBeLessThanOrEqual(Math.ceil(GUESTS / MAILS_PER_JOB) + 1)
  expect(await retries().gatherOnce()).toBe(0)

  // The worker (which gathers too) sends each guest one thank-you.
  t.startWorker()
  await smtp.waitFor((m) => emails.some((e) => m.to.includes(e)), GUESTS, 30_000)
  await new Promise((r) => setTimeout(r, 500))
  for (const email of emails) {
    const got = smtp.received.filter((m) => m.to.includes(email))
    expect(got).toHaveLength(1)
    expect(got[0]?.subject).toMatch(/^Thank you for visiting/)
  }
  const sent = await t.db
    .selectFrom('mail')
    .select(['status', 'waitingFor', 'attempts'])
    .where('toAddress', 'in', emails)
    .execute()
  expect(sent.every((m) => m.status === 'sent' && m.waitingFor === null && m.attempts === 1)).toBe(true)
})

it('gathers thank-yous by itself: a sign-in while the worker runs gets its mail without anyone asking', async () => {
  const agent = await makePlannedAgent(t.db, { firstName: 'Ivo' })
  const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
  const email = `later-${randomUUID().slice(0, 8)}@example.com`
  await signIn(oh.id, email)
  const [got] = await smtp.waitFor((m) => m.to.includes(email), 1, 15_000)
  expect(got?.subject).toMatch(/^Thank you for visiting/)
})
