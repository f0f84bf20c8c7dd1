import net from 'node:net'
import { MAIL_RETRY_DELAYS_MS } from '@porchlight/server/src/config.ts'
import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { createMailProcessor, MailRefusedError } from '@porchlight/server/src/mail/deliver.ts'
import { createMailer } from '@porchlight/server/src/mail/mailer.ts'
import { queueMail } from '@porchlight/server/src/mail/queue-mail.ts'
import { retryDelayMs } from '@porchlight/server/src/mail/refusals.ts'
import { createMailRetries } from '@porchlight/server/src/mail/retries.ts'
import { sql } from 'kysely'
import type { SMTPServerOptions } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { freePort } from '../support/processes.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

/** An SMTP answer smtp-server sends as it is: `code message`. */
const answer = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode })

let t: TestApp
const sinks: SmtpSink[] = []

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t.close()
  await Promise.all(sinks.map((s) => s.close()))
})

async function sink(server: Partial<SMTPServerOptions> = {}, port?: number) {
  const s = await startSmtpSink({ server, port })
  sinks.push(s)
  return s
}

async function storedMail(to: string, createdAt?: Date) {
  const row = await t.db
    .insertInto('mail')
    .values({ toAddress: to, subject: 'Hello', textBody: 'x', htmlBody: '<p>x</p>', createdAt })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

const mailRow = (id: number) =>
  t.db
    .selectFrom('mail')
    .select([
      'status',
      'waitingFor',
      'smtpReply',
      'lastError',
      'attempts',
      sql<number | null>`extract(epoch from next_attempt_at - now())`.as('dueInSeconds'),
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()

/** Sends one stored mail through `smtpUrl` as a worker's job does; answers the row after, and the job's end. */
async function sendVia(smtpUrl: string, to: string, createdAt?: Date) {
  const id = await storedMail(to, createdAt)
  const mailer = createMailer({ ...t.config, mail: { ...t.config.mail, smtpUrl } })
  try {
    const job = await createMailProcessor(
      t.db,
      mailer,
    )({ mailIds: [id] }).then(
      (outcomes) => ({ outcomes }),
      (error: Error) => ({ error }),
    )
    return { id, row: await mailRow(id), job }
  } finally {
    mailer.close()
  }
}

describe('what a failed send means for the mail', () => {
  it('fails a mail for good when the server refuses its recipient (550), keeping the reply, and fails its job with it', async () => {
    const s = await sink({
      onRcptTo: (_a, _s, callback) => callback(answer(550, '5.1.1 No such user here')),
    })
    const { row, job } = await sendVia(s.url, 'nobody@example.com')
    expect(row).toMatchObject({ status: 'failed', waitingFor: null, dueInSeconds: null })
    expect(row.smtpReply).toBe('550 5.1.1 No such user here')
    expect('error' in job && job.error).toBeInstanceOf(MailRefusedError)
    expect('error' in job && job.error.message).toContain('550 5.1.1 No such user here')
  })

  it('fails a mail for good when the server refuses its message after DATA (552)', async () => {
    const s = await sink({
      onData(stream, _s, callback) {
        stream.resume()
        stream.on('end', () => callback(answer(552, 'Message rejected as too large')))
      },
    })
    const { row } = await sendVia(s.url, 'big@example.com')
    expect(row).toMatchObject({ status: 'failed', smtpReply: '552 Message rejected as too large' })
  })

  it('waits on the schedule when the server defers the recipient (451, greylisting): first again in 15 s', async () => {
    const s = await sink({
      onRcptTo: (_a, _s, callback) => callback(answer(451, '4.7.1 Greylisted, try again later')),
    })
    const { row, job } = await sendVia(s.url, 'greylisted@example.com')
    expect(row).toMatchObject({
      status: 'waiting',
      waitingFor: 'schedule',
      smtpReply: '451 4.7.1 Greylisted, try again later',
      attempts: 1,
    })
    expect(row.dueInSeconds).toBeGreaterThan(13)
    expect(row.dueInSeconds).toBeLessThanOrEqual(15)
    // The job itself is done: the mail waits in PostgreSQL, not in BullMQ's retries.
    expect(job).toEqual({ outcomes: ['waiting'] })
  })

  it('waits on the schedule, not for good, when the server refuses our sender (MAIL FROM 550): a setting to fix', async () => {
    const s = await sink({ onMailFrom: (_a, _s, callback) => callback(answer(550, 'Sender not allowed')) })
    const { row } = await sendVia(s.url, 'sender-refused@example.com')
    expect(row).toMatchObject({
      status: 'waiting',
      waitingFor: 'schedule',
      smtpReply: '550 Sender not allowed',
    })
  })

  it('waits on the schedule, not for good, when the server refuses to relay for us (554 5.7.1): every mail would be refused', async () => {
    const s = await sink({
      onRcptTo: (_a, _s, callback) => callback(answer(554, '5.7.1 <far@example.org>: Relay access denied')),
    })
    const { row, job } = await sendVia(s.url, 'far@example.org')
    expect(row).toMatchObject({ status: 'waiting', waitingFor: 'schedule' })
    expect(row.smtpReply).toBe('554 5.7.1 <far@example.org>: Relay access denied')
    expect(job).toEqual({ outcomes: ['waiting'] })
  })

  it('waits for the server when nothing listens, when it answers 421 and when it refuses our login', async () => {
    const closed = await sendVia(`smtp://127.0.0.1:${await freePort()}`, 'nobody-listens@example.com')
    expect(closed.row).toMatchObject({ status: 'waiting', waitingFor: 'server', smtpReply: null })
    expect(closed.row.lastError).toMatch(/ECONNREFUSED|connect/i)

    const busy = await sink({
      onConnect: (_s, callback) => callback(answer(421, 'Too busy, come back later')),
    })
    const unavailable = await sendVia(busy.url, 'busy@example.com')
    expect(unavailable.row).toMatchObject({
      status: 'waiting',
      waitingFor: 'server',
      smtpReply: '421 Too busy, come back later',
    })

    const locked = await sink({
      authOptional: false,
      onAuth: (_auth, _s, callback) => callback(answer(535, 'Authentication credentials invalid')),
    })
    const login = await sendVia(locked.url.replace('smtp://', 'smtp://ops:wrong@'), 'login@example.com')
    expect(login.row).toMatchObject({ status: 'waiting', waitingFor: 'server' })

    // A server that takes the connection and never greets: the greeting times out.
    const held: net.Socket[] = []
    const silent = net.createServer((socket) => held.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = silent.address() as net.AddressInfo
      const timedOut = await sendVia(`smtp://127.0.0.1:${port}?greetingTimeout=300`, 'silent@example.com')
      expect(timedOut.row).toMatchObject({ status: 'waiting', waitingFor: 'server', smtpReply: null })
      expect(timedOut.row.lastError).toMatch(/greeting/i)
    } finally {
      for (const socket of held) socket.destroy()
      silent.close()
    }
  })

  it('gives up on a mail the server still has not taken three days after it was written', async () => {
    const written = new Date(Date.now() - 3 * 24 * 3600_000 - 60_000)
    const { row } = await sendVia(`smtp://127.0.0.1:${await freePort()}`, 'too-late@example.com', written)
    expect(row.status).toBe('failed')
    expect(row.lastError).toMatch(/^Gave up waiting: /)
  })

  it('backs off over hours: 15 s, 30 s, 1, 2, 5, 10, 20, 30 min, 1 h, then every 2 h', () => {
    const minutes = Array.from({ length: 12 }, (_, i) => retryDelayMs(i + 1, MAIL_RETRY_DELAYS_MS) / 60_000)
    expect(minutes).toEqual([0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 120, 120])
  })
})

describe('waiting mail goes again', () => {
  const waiting = (id: number, waitingFor: 'server' | 'schedule', dueInMs: number) =>
    t.db
      .updateTable('mail')
      .set({
        status: 'waiting',
        waitingFor,
        attempts: 1,
        nextAttemptAt: new Date(Date.now() + dueInMs),
      })
      .where('id', '=', id)
      .execute()
  const sendJobsFor = async (id: number) =>
    (
      await t.db
        .selectFrom('outbox')
        .select('payload')
        .where('jobName', '=', 'send')
        .where(sql<boolean>`payload->'mailIds' @> ${JSON.stringify([id])}::jsonb`)
        .execute()
    ).length

  it('hands due mail back to the queue with a send job, and leaves mail not yet due waiting', async () => {
    const due = await storedMail('due@example.com')
    const later = await storedMail('later@example.com')
    await waiting(due, 'schedule', -1000)
    await waiting(later, 'schedule', 600_000)
    const mailer = createMailer(t.config)
    const retries = createMailRetries({
      db: t.db,
      outbox: t.app.deps.outbox,
      mailer,
      config: t.config.mailRetry,
    })
    expect(await retries.sweepOnce()).toBe(1)
    expect((await mailRow(due)).status).toBe('queued')
    expect(await sendJobsFor(due)).toBe(1)
    expect((await mailRow(later)).status).toBe('waiting')
    expect(await sendJobsFor(later)).toBe(0)
    // A sweep that runs again finds nothing more to hand back.
    expect(await retries.sweepOnce()).toBe(0)
    expect(await sendJobsFor(due)).toBe(1)
  })

  it('gives mail whose job was lost a send job again: queued and never claimed, a sender gone with its lease, or written without one', async () => {
    // A PostgreSQL outage longer than a job's retries fails the job; its mails stay queued or sending.
    const queuedLongAgo = await storedMail('queued@example.com', new Date(Date.now() - 20 * 60_000))
    // An API process older than decision 053 wrote a sign-in's thank-you with no job of its own ('job').
    const withoutJob = await storedMail('older-api@example.com', new Date(Date.now() - 11 * 60_000))
    await t.db.updateTable('mail').set({ waitingFor: 'job' }).where('id', '=', withoutJob).execute()
    const senderGone = await storedMail('sending@example.com', new Date(Date.now() - 30 * 60_000))
    await t.db
      .updateTable('mail')
      .set({ status: 'sending', attempts: 1, leaseUntil: new Date(Date.now() - 15 * 60_000) })
      .where('id', '=', senderGone)
      .execute()
    const justQueued = await storedMail('fresh@example.com')
    const sending = await storedMail('busy@example.com', new Date(Date.now() - 30 * 60_000))
    await t.db
      .updateTable('mail')
      .set({ status: 'sending', attempts: 1, leaseUntil: new Date(Date.now() + 20_000) })
      .where('id', '=', sending)
      .execute()
    const mailer = createMailer(t.config)
    const retries = createMailRetries({
      db: t.db,
      outbox: t.app.deps.outbox,
      mailer,
      config: t.config.mailRetry,
    })
    expect(await retries.sweepOnce()).toBe(3)
    expect((await mailRow(queuedLongAgo)).status).toBe('queued')
    expect((await mailRow(senderGone)).status).toBe('queued')
    expect(await mailRow(withoutJob)).toMatchObject({ status: 'queued', waitingFor: null })
    expect(await sendJobsFor(queuedLongAgo)).toBe(1)
    expect(await sendJobsFor(senderGone)).toBe(1)
    expect(await sendJobsFor(withoutJob)).toBe(1)
    // A mail queued a moment ago, and one a live sender holds, keep their jobs.
    expect(await sendJobsFor(justQueued)).toBe(0)
    expect(await sendJobsFor(sending)).toBe(0)
    expect((await mailRow(sending)).status).toBe('sending')
    // Handed back, each is queued since now: the next sweep leaves it to its new job.
    expect(await retries.sweepOnce()).toBe(0)
    // The new job sends each once.
    const s = await sink()
    const sender = createMailer({ ...t.config, mail: { ...t.config.mail, smtpUrl: s.url } })
    try {
      await createMailProcessor(t.db, sender)({ mailIds: [queuedLongAgo, senderGone, withoutJob] })
    } finally {
      sender.close()
    }
    expect((await mailRow(queuedLongAgo)).status).toBe('sent')
    expect((await mailRow(senderGone)).status).toBe('sent')
    expect((await mailRow(withoutJob)).status).toBe('sent')
    expect(s.received.flatMap((m) => m.to).sort()).toEqual([
      'older-api@example.com',
      'queued@example.com',
      'sending@example.com',
    ])
  })

  it('hands each due mail back once when two workers sweep at the same moment', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => storedMail(`swept-${i}@example.com`)))
    for (const id of ids) await waiting(id, 'schedule', -1000)
    const mailer = createMailer(t.config)
    const sweeper = () =>
      createMailRetries({ db: t.db, outbox: t.app.deps.outbox, mailer, config: t.config.mailRetry })
    const [a, b] = await Promise.all([sweeper().sweepOnce(), sweeper().sweepOnce()])
    expect(a + b).toBe(30)
    const jobs = await Promise.all(ids.map(sendJobsFor))
    expect(jobs).toEqual(ids.map(() => 1))
  })

  it('holds mail waiting for a server the probe finds down, and releases all of it the moment the server answers', async () => {
    const port = await freePort()
    const mailer = createMailer({
      ...t.config,
      mail: { ...t.config.mail, smtpUrl: `smtp://127.0.0.1:${port}` },
    })
    const retries = createMailRetries({
      db: t.db,
      outbox: t.app.deps.outbox,
      mailer,
      config: t.config.mailRetry,
    })
    try {
      const forServer = await storedMail('for-server@example.com')
      const onSchedule = await storedMail('on-schedule@example.com')
      await waiting(forServer, 'server', 3_600_000)
      await waiting(onSchedule, 'schedule', 3_600_000)

      expect(await retries.probeOnce()).toBe('down')
      // Even once due, mail for a server that is down is not sent against it.
      await t.db.updateTable('mail').set({ nextAttemptAt: new Date() }).where('id', '=', forServer).execute()
      await retries.sweepOnce()
      expect((await mailRow(forServer)).status).toBe('waiting')

      await t.db
        .updateTable('mail')
        .set({ nextAttemptAt: new Date(Date.now() + 3_600_000) })
        .where('id', '=', forServer)
        .execute()
      await sink({}, port)
      expect(await retries.probeOnce()).toBe('up')
      expect((await mailRow(forServer)).status).toBe('queued')
      expect(await sendJobsFor(forServer)).toBe(1)
      // A mail the server deferred keeps its own schedule.
      expect(await mailRow(onSchedule)).toMatchObject({ status: 'waiting', waitingFor: 'schedule' })
    } finally {
      mailer.close()
    }
  })
})

describe('through the worker', () => {
  const TOKEN = 'operator-secret-0123456789'
  let w: TestApp
  let deferring = 2
  let server: SmtpSink
  beforeAll(async () => {
    server = await sink({
      onRcptTo(address, _s, callback) {
        if (address.address === 'refused@example.com') return callback(answer(550, '5.1.1 No such user'))
        if (address.address === 'deferred@example.com' && deferring-- > 0)
          return callback(answer(450, '4.2.1 Mailbox busy'))
        callback()
      },
    })
    w = await buildTestApp({
      env: { SMTP_URL: server.url, QUEUE_DASHBOARD_TOKEN: TOKEN },
      configure(config) {
        config.mailRetry.delaysMs = [1500]
        config.mailRetry.sweepIntervalMs = 200
      },
    })
    w.startWorker()
  })
  afterAll(async () => {
    await w.close()
  })

  const queueOne = (to: string) =>
    inTransaction(w.db, (trx) =>
      queueMail(trx, w.app.deps.outbox, { to, subject: `For ${to}`, text: 'x', html: '<p>x</p>' }),
    )
  const dashboardMail = async () => {
    const res = await fetch(`${w.url}/admin/queues/api/queues?activeQueue=mail&status=failed`, {
      headers: { authorization: `Basic ${Buffer.from(`ops:${TOKEN}`).toString('base64')}` },
    })
    const body = await res.json()
    return body.queues.find((q: { name: string }) => q.name === 'mail')
  }

  it('sends a deferred mail once its schedule comes, showing it waiting on /api/ready and the queue dashboard meanwhile', async () => {
    const id = await queueOne('deferred@example.com')
    await expect
      .poll(
        async () =>
          (await w.db.selectFrom('mail').select('status').where('id', '=', id).executeTakeFirstOrThrow())
            .status,
        { interval: 50 },
      )
      .toBe('waiting')
    const ready = await w.call('GET', '/ready')
    expect(ready.body.data.mail).toEqual({ waiting: 1, oldestWaitingSeconds: expect.any(Number) })
    expect((await dashboardMail()).description).toMatch(
      /^Waiting for the mail server: 1 mail, the oldest written \d+ s ago/,
    )

    await server.waitFor((m) => m.to.includes('deferred@example.com'), 1, 15_000)
    await new Promise((r) => setTimeout(r, 500))
    expect(server.received.filter((m) => m.to.includes('deferred@example.com'))).toHaveLength(1)
    const row = await w.db
      .selectFrom('mail')
      .select(['status', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'sent', attempts: 3 })
    expect((await w.call('GET', '/ready')).body.data.mail).toEqual({ waiting: 0, oldestWaitingSeconds: null })
    expect((await dashboardMail()).description).toBe('No mail waiting for the mail server')
  })

  it('shows a mail refused for good as a failed job with the server reply, and its outbox row failed', async () => {
    const id = await queueOne('refused@example.com')
    await expect.poll(async () => (await dashboardMail()).counts.failed, { interval: 100 }).toBe(1)
    const mail = await dashboardMail()
    expect(mail.jobs[0].failedReason).toBe(`Refused for good: mail ${id}: 550 5.1.1 No such user`)
    // No retries: a repeat would find the mail refused and send nothing.
    expect(mail.jobs[0].attempts).toBe(1)
    await expect
      .poll(
        async () =>
          (
            await w.db
              .selectFrom('outbox')
              .select('failedReason')
              .where('jobName', '=', 'send')
              .where('failedAt', 'is not', null)
              .execute()
          ).length,
      )
      .toBe(1)
  })
})
