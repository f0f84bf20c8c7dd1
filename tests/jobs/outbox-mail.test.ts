import { inTransaction } from '@porchlight/server/src/db/transaction.ts'
import { createMailProcessor } from '@porchlight/server/src/mail/deliver.ts'
import { createMailer } from '@porchlight/server/src/mail/mailer.ts'
import { queueMail, queueMails } from '@porchlight/server/src/mail/queue-mail.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makeAgent } from '../support/factories.ts'
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts'

let t: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } })
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

async function mailStatus(id: number) {
  return t.db
    .selectFrom('mail')
    .select(['status', 'smtpMessageId'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

describe('outbox to mail', () => {
  it('turns one outbox row into exactly one delivered mail, even when the relay runs twice', async () => {
    const to = 'relay-twice@example.com'
    const mailId = await inTransaction(t.db, (trx) =>
      queueMail(trx, t.app.deps.outbox, {
        to,
        subject: 'Your code',
        text: 'Code 123456',
        html: '<p>Code 123456</p>',
      }),
    )
    // The commit itself kicks a relay; wait for it, and for the one it asks for after it, then put the
    // row back as if that relay had died before marking it, and relay it twice more at once. (The
    // worker started below relays on its own.)
    await expect
      .poll(
        async () => (await t.db.selectFrom('outbox').select('relayedAt').executeTakeFirstOrThrow()).relayedAt,
      )
      .not.toBeNull()
    await t.app.deps.outbox.stop()
    await t.db.updateTable('outbox').set({ relayedAt: null }).execute()
    const [a, b] = await Promise.all([t.app.deps.outbox.relayOnce(), t.app.deps.outbox.relayOnce()])
    expect(a + b).toBe(1)

    t.startWorker()
    const [mail] = await smtp.waitFor((m) => m.to.includes(to))
    expect(mail?.subject).toBe('Your code')
    expect(mail?.text.trim()).toBe('Code 123456')
    await new Promise((r) => setTimeout(r, 500))
    expect(smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1)
    // A random Message-ID (unique across databases and restores), the one the mail went out with.
    const status = await mailStatus(mailId)
    expect(status).toEqual({ status: 'sent', smtpMessageId: expect.stringMatching(/^<[0-9a-f-]{36}@/) })
    expect(mail?.raw.messageId).toBe(status.smtpMessageId)
  })

  it('delivers a burst of mails once each', async () => {
    const addresses = Array.from({ length: 60 }, (_, i) => `burst-${i}@example.com`)
    const ids = await inTransaction(t.db, (trx) =>
      queueMails(
        trx,
        t.app.deps.outbox,
        addresses.map((to) => ({ to, subject: 'Burst', text: `for ${to}`, html: `<p>for ${to}</p>` })),
      ),
    )
    expect(ids).toHaveLength(60)
    t.startWorker()
    const received = await smtp.waitFor((m) => m.subject === 'Burst', 60)
    await new Promise((r) => setTimeout(r, 500))
    expect(smtp.received.filter((m) => m.subject === 'Burst')).toHaveLength(60)
    expect(new Set(received.flatMap((m) => m.to))).toEqual(new Set(addresses))
    for (const m of received) expect(m.text.trim()).toBe(`for ${m.to[0]}`)
    const rows = await t.db.selectFrom('mail').select('status').where('id', 'in', ids).execute()
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'sent'))
  })

  it('sends a mail asked for twice at once only once: the second ask finds it in flight', async () => {
    const to = 'asked-twice@example.com'
    // Stored without a send job, so that only the two asks below send it.
    const { id: mailId } = await t.db
      .insertInto('mail')
      .values({ toAddress: to, subject: 'Twice', textBody: 'x', htmlBody: '<p>x</p>' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const mailer = createMailer(t.app.deps.config)
    try {
      const send = createMailProcessor(t.db, mailer)
      // Both asks are made in the same moment, so they share one claim statement. One is a job as stored
      // before mails went ten to a job ({ mailId }), which is still sent.
      const outcomes = await Promise.allSettled([send({ mailIds: [mailId] }), send({ mailId })])
      expect(
        outcomes.map((o) => (o.status === 'fulfilled' ? o.value[0] : o.reason.constructor.name)).sort(),
      ).toEqual(['MailInFlightError', 'sent'])
      await smtp.waitFor((m) => m.to.includes(to))
      await new Promise((r) => setTimeout(r, 300))
      expect(smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1)
    } finally {
      mailer.close()
    }
  })

  it('sends the rest of a job when one of its mails is refused for good, keeps the reply, and never sends it again', async () => {
    const refusing = await startSmtpSink({
      server: {
        onRcptTo(address, _session, callback) {
          if (address.address === 'refused@example.com') callback(new Error('No such mailbox'))
          else callback()
        },
      },
    })
    const mailer = createMailer({
      ...t.app.deps.config,
      mail: { ...t.app.deps.config.mail, smtpUrl: refusing.url },
    })
    try {
      const ids = await Promise.all(
        ['first@example.com', 'refused@example.com', 'third@example.com'].map(async (to) => {
          const row = await t.db
            .insertInto('mail')
            .values({ toAddress: to, subject: 'One job', textBody: 'x', htmlBody: '<p>x</p>' })
            .returning('id')
            .executeTakeFirstOrThrow()
          return row.id
        }),
      )
      const send = createMailProcessor(t.db, mailer)
      await expect(send({ mailIds: ids })).rejects.toThrow(/No such mailbox/)
      expect(refusing.received.flatMap((m) => m.to)).toEqual(['first@example.com', 'third@example.com'])
      // In the job's order: first, refused, third.
      const statuses = async () => {
        const rows = await t.db.selectFrom('mail').select(['id', 'status']).where('id', 'in', ids).execute()
        return ids.map((id) => rows.find((r) => r.id === id)?.status)
      }
      expect(await statuses()).toEqual(['sent', 'failed', 'sent'])
      const refused = await t.db
        .selectFrom('mail')
        .select(['smtpReply', 'nextAttemptAt'])
        .where('id', '=', ids[1] as number)
        .executeTakeFirstOrThrow()
      expect(refused).toEqual({ smtpReply: '550 No such mailbox', nextAttemptAt: null })
      // The same job run again (an operator's retry) sends nothing: the refusal was final.
      expect(await send({ mailIds: ids })).toEqual(['skipped', 'skipped', 'skipped'])
      expect(refusing.received.flatMap((m) => m.to)).toEqual(['first@example.com', 'third@example.com'])
      expect(await statuses()).toEqual(['sent', 'failed', 'sent'])
    } finally {
      mailer.close()
      await refusing.close()
    }
  })

  it('sends nothing when the transaction that queued the mail rolls back', async () => {
    const to = 'rolled-back@example.com'
    await expect(
      inTransaction(t.db, async (trx) => {
        await queueMail(trx, t.app.deps.outbox, { to, subject: 'Never', text: 'never', html: '<p>never</p>' })
        throw new Error('validation failed later in the same transaction')
      }),
    ).rejects.toThrow()
    const rows = await t.db.selectFrom('mail').select('id').where('toAddress', '=', to).execute()
    expect(rows).toEqual([])
  })

  it('keeps the outbox row waiting while Redis is unreachable', async () => {
    const away = await buildTestApp({
      sameAs: t,
      env: { REDIS_URL: 'redis://127.0.0.1:1', SMTP_URL: smtp.url },
    })
    try {
      await inTransaction(t.db, (trx) =>
        queueMail(trx, away.app.deps.outbox, {
          to: 'later@example.com',
          subject: 'Later',
          text: 'x',
          html: '<p>x</p>',
        }),
      )
      await expect(away.app.deps.outbox.relayOnce()).rejects.toThrow()
      const waiting = await t.db.selectFrom('outbox').select('id').where('relayedAt', 'is', null).execute()
      expect(waiting).toHaveLength(1)
    } finally {
      await away.close()
    }
    // Back on a working Redis, the row goes out.
    await smtp.waitFor((m) => m.to.includes('later@example.com'))
  })
})

describe('sending without holding the row', () => {
  let slow: SmtpSink
  let s: TestApp
  beforeAll(async () => {
    // An SMTP server that takes 1.5 s to accept each mail.
    slow = await startSmtpSink({ delayMs: 1500 })
    s = await buildTestApp({ env: { SMTP_URL: slow.url } })
  })
  afterAll(async () => {
    await s.close()
    await slow.close()
  })

  it('holds no lock on the mail while the SMTP server answers, and marks it sent after', async () => {
    s.startWorker()
    const to = 'slow-server@example.com'
    const mailId = await inTransaction(s.db, (trx) =>
      queueMail(trx, s.app.deps.outbox, { to, subject: 'Slow', text: 'x', html: '<p>x</p>' }),
    )
    const status = async () =>
      (await s.db.selectFrom('mail').select('status').where('id', '=', mailId).executeTakeFirstOrThrow())
        .status
    await expect.poll(status, { interval: 20 }).toBe('sending')
    // Mid-exchange, anyone may lock the row at once: no transaction waits on the SMTP server.
    await inTransaction(s.db, async (trx) => {
      const row = await trx
        .selectFrom('mail')
        .select(['status', 'leaseUntil'])
        .where('id', '=', mailId)
        .forUpdate()
        .noWait()
        .executeTakeFirstOrThrow()
      expect(row.status).toBe('sending')
      expect(new Date(row.leaseUntil as Date).getTime()).toBeGreaterThan(Date.now())
    })
    await slow.waitFor((m) => m.to.includes(to))
    await expect.poll(status).toBe('sent')
  })

  /** Two mails stored without a send job, so that only the job the test runs sends them. */
  async function twoMails(prefix: string) {
    const rows = await s.db
      .insertInto('mail')
      .values(
        ['first', 'second'].map((n) => ({
          toAddress: `${prefix}-${n}@example.com`,
          subject: n,
          textBody: 'x',
          htmlBody: '<p>x</p>',
        })),
      )
      .returning(['id', 'toAddress'])
      .execute()
    return rows.sort((a, b) => a.id - b.id)
  }
  const row = (id: number) =>
    s.db.selectFrom('mail').select(['status', 'leaseUntil']).where('id', '=', id).executeTakeFirstOrThrow()

  it('claims the next mail of a job while the one before goes out, and starts its lease again when that was slow', async () => {
    const [first, second] = await twoMails('ahead')
    if (!first || !second) throw new Error('two mails were stored')
    const mailer = createMailer(s.app.deps.config)
    try {
      const job = createMailProcessor(s.db, mailer)({ mailIds: [first.id, second.id] })
      // While the first is with the (slow) server, the second is already this worker's.
      await expect.poll(async () => (await row(first.id)).status, { interval: 20 }).toBe('sending')
      await expect.poll(async () => (await row(second.id)).status, { interval: 20 }).toBe('sending')
      const claimedUntil = new Date((await row(second.id)).leaseUntil as Date).getTime()
      // The first took 1.5 s: the second's lease starts again when its own send starts.
      await slow.waitFor((m) => m.to.includes(first.toAddress))
      await expect
        .poll(async () => new Date((await row(second.id)).leaseUntil as Date).getTime() - claimedUntil, {
          interval: 50,
        })
        .toBeGreaterThan(1000)
      expect(await job).toEqual(['sent', 'sent'])
      expect(slow.received.filter((m) => m.to.includes(second.toAddress))).toHaveLength(1)
      expect((await row(second.id)).status).toBe('sent')
    } finally {
      mailer.close()
    }
  })

  it("claims a job's mails at its start in one statement and asks their opt-outs in one read, suppressing the opted-out one", async () => {
    const agent = await makeAgent(s.db)
    const rows = await s.db
      .insertInto('mail')
      .values(
        ['first', 'opted-out', 'third'].map((n) => ({
          toAddress: `together-${n}@example.com`,
          subject: n,
          textBody: 'x',
          htmlBody: '<p>x</p>',
          reAgentId: agent.agent.id,
        })),
      )
      .returning(['id', 'toAddress'])
      .execute()
    const ids = rows.map((r) => r.id).sort((a, b) => a - b)
    // What the ledger would answer (the consent service's `optedOutEach` in the worker), and how it was asked.
    const asked: string[][] = []
    const optedOutEach = async (pairs: Array<{ agentId: number; email: string }>) => {
      asked.push(pairs.map((p) => p.email))
      return pairs.map((p) => p.email.includes('opted-out'))
    }
    const mailer = createMailer(s.app.deps.config)
    try {
      const job = createMailProcessor(s.db, mailer, optedOutEach)({ mailIds: ids })
      // While the first is with the (slow) server, the job's every mail is already this worker's.
      await expect
        .poll(
          async () =>
            (await s.db.selectFrom('mail').select('status').where('id', 'in', ids).execute()).map(
              (r) => r.status,
            ),
          { interval: 20 },
        )
        .toEqual(['sending', 'sending', 'sending'])
      expect(await job).toEqual(['sent', 'suppressed', 'sent'])
      // One read for the three, asked before the first went out; the two that then waited the first's
      // 1.5 s for their turn are asked again as they go (their claims started again too).
      expect(asked).toEqual([
        ['together-first@example.com', 'together-opted-out@example.com', 'together-third@example.com'],
        ['together-opted-out@example.com'],
        ['together-third@example.com'],
      ])
      expect(slow.received.filter((m) => m.to.includes('together-opted-out@example.com'))).toHaveLength(0)
    } finally {
      mailer.close()
    }
  })

  it('does not send a mail claimed ahead that another worker took over while the one before went out', async () => {
    const [first, second] = await twoMails('taken-over')
    if (!first || !second) throw new Error('two mails were stored')
    const mailer = createMailer(s.app.deps.config)
    try {
      const job = createMailProcessor(s.db, mailer)({ mailIds: [first.id, second.id] })
      await expect.poll(async () => (await row(second.id)).status, { interval: 20 }).toBe('sending')
      // What another worker's claim does once a lease has run out: a new attempt, a lease of its own.
      await s.db
        .updateTable('mail')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', second.id)
        .execute()
      expect(await job).toEqual(['sent', 'skipped'])
      expect(slow.received.filter((m) => m.to.includes(second.toAddress))).toHaveLength(0)
    } finally {
      mailer.close()
    }
  })
})

describe('stopping the relay', () => {
  it('starts no relay after it stopped, not even for a commit, until it is started again', async () => {
    const u = await buildTestApp()
    try {
      const queue = (to: string) =>
        inTransaction(u.db, (trx) =>
          queueMail(trx, u.app.deps.outbox, { to, subject: 'Stop', text: 'x', html: '<p>x</p>' }),
        )
      const relayed = async () =>
        (await u.db.selectFrom('outbox').select('relayedAt').orderBy('id').execute()).map(
          (row) => row.relayedAt !== null,
        )
      // The commit kicks a relay; stopping waits for it, and for the one it asks for as it ends.
      await queue('before-stop@example.com')
      await u.app.deps.outbox.stop()
      expect(await relayed()).toEqual([true])
      // As a process shuts down: a commit after the stop leaves its row for whoever relays next.
      await queue('after-stop@example.com')
      await new Promise((r) => setTimeout(r, 500))
      expect(await relayed()).toEqual([true, false])
      u.app.deps.outbox.start(50)
      await expect.poll(relayed).toEqual([true, true])
    } finally {
      await u.close()
    }
  })
})
