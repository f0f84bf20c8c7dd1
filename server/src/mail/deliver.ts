import type { JobPayload } from '@porchlight/shared'
import { UnrecoverableError } from 'bullmq'
import { type Selectable, sql } from 'kysely'
import { type Config, MAIL_GIVE_UP_AFTER_MS, MAIL_RETRY_DELAYS_MS } from '../config.ts'
import type { Db } from '../db/database.ts'
import type { MailTable } from '../db/types.ts'
import { whileDatabaseAway } from '../db/while-away.ts'
import { TRACE_KEY } from '../jobs/outbox.ts'
import { untrace } from '../jobs/workers.ts'
import { batched } from '../lib/batched.ts'
import { type Counted, metrics } from '../lib/metrics.ts'
import { trace } from '../lib/trace.ts'
import type { Mailer } from './mailer.ts'
import { classifySendFailure, retryDelayMs } from './refusals.ts'
import { type SealedMailColumn, withUnsubscribeLink } from './unsubscribe-link.ts'

/**
 * How long a worker owns a mail it is sending: longer than an SMTP exchange normally takes (the
 * mailer gives up on a silent server after 10 s), short enough that a dead worker's mails go out soon.
 */
export const SEND_LEASE_MS = 20_000

/**
 * A job claims all of its mails at its start, in one statement, and sends them one after another. A
 * claim older than this when its send starts (the mails before were slow to go) has its lease started
 * again, and its opt-out asked again, so every send starts with nearly all of its lease and with an
 * answer about its address from less than this long ago.
 */
const RENEW_CLAIM_AFTER_MS = 1000

/** A claimed mail's lease, from the statement that claims it or starts its lease again. */
const leaseEnd = () => sql<Date>`now() + ${`${SEND_LEASE_MS} milliseconds`}::interval`

/** A mail another worker is sending right now: the job waits (BullMQ retries it) rather than sends twice. */
export class MailInFlightError extends Error {
  constructor(mailId: number) {
    super(`mail ${mailId} is being sent by another worker`)
  }
}

/** What became of one mail a job asked to send. */
type Outcome = 'sent' | 'stored' | 'skipped' | 'suppressed' | 'waiting' | 'failed'

/** A mail's outcome as the deliveries metric counts it (a suppressed mail is skipped: its owner opted out). */
const countedAs = {
  sent: 'delivered',
  stored: 'delivered',
  skipped: 'skipped',
  suppressed: 'skipped',
  waiting: 'retrying',
  failed: 'failed',
} as const satisfies Record<Outcome, Counted['delivery']['outcome']>

type Claim = {
  mail: Selectable<MailTable> | undefined
  /** When the claim was asked for: its lease began after this. */
  askedAt: number
  /** Whether its address opted out of mail from its agent, asked once it was claimed. */
  optedOut: Promise<boolean>
}

type MailMark = {
  mailId: number
  status: 'sent' | 'stored' | 'waiting' | 'failed' | 'suppressed'
  smtpMessageId?: string | null
  lastError?: string
  /** The server's answer to a failed attempt. */
  smtpReply?: string | null
  /** A waiting mail: what it waits for, and how long from now its next attempt is. */
  waitingFor?: 'server' | 'schedule'
  delayMs?: number
}

/** The job of a mail the server refused for good fails, so the queue dashboard shows it with the reply. */
export class MailRefusedError extends UnrecoverableError {}

/**
 * Sends one stored mail, holding no transaction or row lock across the SMTP exchange: one conditional
 * statement claims the row with a lease, the mail is sent, a second statement marks it sent. A mail
 * already sent (or stored for the dev mailbox) is skipped, so a job that runs twice — a retry, a
 * repeated relay, two workers at once — still delivers once. Only a worker that dies between the SMTP
 * answer and marking the row leaves it to be sent again once the lease has run out, with the same
 * Message-ID, so the receiving server can tell it is a repeat (docs/guarantees.md).
 *
 * The sends running at once in a worker share their statements: the claims that arrive while one is in
 * flight go together in the next, and so do the marks (`batched`), so a burst of mail costs a few
 * statements per batch rather than two per mail.
 *
 * A mail the server could not take waits in PostgreSQL and the job completes (decision 031): 'waiting'
 * until its next attempt, which `retries.ts` hands back to the queue. A permanent refusal (5xx to its
 * recipient or message) is final: the row keeps the server's reply and the job fails with it.
 */
export function createMailProcessor(
  db: Db,
  mailer: Mailer,
  /**
   * Which of these addresses opted out of mail from their agent, one answer each: such a mail is
   * suppressed, not sent. Asked for many mails at once (the sends in flight share one statement).
   */
  optedOutEach: (asked: Array<{ agentId: number; email: string }>) => Promise<boolean[]> = async (asked) =>
    asked.map(() => false),
  /**
   * Opens a mail's sealed links (decision 033: its unsubscribe link and its private link, by column),
   * put back into the mail as it goes out.
   */
  openLink: (sealed: string, column: SealedMailColumn) => string = (sealed) => sealed,
  retry: Pick<Config['mailRetry'], 'delaysMs' | 'giveUpAfterMs'> = {
    delaysMs: MAIL_RETRY_DELAYS_MS,
    giveUpAfterMs: MAIL_GIVE_UP_AFTER_MS,
  },
  /** Told of each mail sent (debug); a thank-you's line carries the request id of its sign-in. */
  log: (fields: { mailId: number; outcome: Outcome }, msg: string) => void = () => {},
) {
  const claim = batched(async (ids: number[]) => {
    const rows = await db
      .updateTable('mail')
      .set({
        status: 'sending',
        leaseUntil: leaseEnd(),
        attempts: sql<number>`attempts + 1`,
      })
      .where('id', '=', sql<number>`any(${sql.val(ids)}::bigint[])`)
      // A waiting mail is claimed once its time has come and the sweep queued it again; a failed one never.
      .where((eb) =>
        eb.or([
          eb('status', '=', 'queued'),
          eb.and([eb('status', '=', 'sending'), eb('leaseUntil', '<', sql<Date>`now()`)]),
        ]),
      )
      .returningAll()
      .execute()
    const claimed = new Map(rows.map((row) => [row.id, row]))
    // The same mail asked for twice in one batch (two jobs for it) is claimed by the first ask only.
    return ids.map((id) => {
      const row = claimed.get(id)
      claimed.delete(id)
      return row
    })
  })
  // Only a row this worker holds ('sending') is marked: a lease that ran out and was taken over is not.
  // A database away for a moment is waited out: the mail went, and a failed mark would send it again.
  const mark = batched(async (marks: MailMark[]) => {
    const column = <K extends keyof MailMark>(key: K) => sql.val(marks.map((m) => m[key] ?? null))
    await whileDatabaseAway(() =>
      sql`
      update mail set
        status = v.status,
        smtp_message_id = coalesce(v.smtp_message_id, mail.smtp_message_id),
        last_error = coalesce(v.last_error, mail.last_error),
        smtp_reply = case when v.status in ('waiting', 'failed') then v.smtp_reply else mail.smtp_reply end,
        waiting_for = v.waiting_for,
        next_attempt_at = now() + v.delay_ms * interval '1 millisecond',
        lease_until = null,
        sent_at = case when v.status in ('sent', 'stored') then now() else mail.sent_at end
      from unnest(${column('mailId')}::bigint[], ${column('status')}::text[],
        ${column('smtpMessageId')}::text[], ${column('lastError')}::text[],
        ${column('smtpReply')}::text[], ${column('waitingFor')}::text[], ${column('delayMs')}::bigint[])
        as v(id, status, smtp_message_id, last_error, smtp_reply, waiting_for, delay_ms)
      where mail.id = v.id and mail.status = 'sending'`.execute(db),
    )
    return marks.map(() => undefined)
  })

  // Every mail for an agent is asked about as it is claimed (again if it waited long to go out); the
  // claims of this worker that ask meanwhile (a job's mails, other jobs') share one read of the ledger.
  const optedOut = batched(optedOutEach)
  const askOptedOut = (mail: Selectable<MailTable> | undefined): Promise<boolean> => {
    const asked =
      mail?.reAgentId == null
        ? Promise.resolve(false)
        : optedOut({ agentId: mail.reAgentId, email: mail.toAddress })
    // Awaited when its mail's turn comes; until then a failure must not count as unhandled.
    asked.catch(() => {})
    return asked
  }

  /** Claims a mail: asked now, with the job's other mails, so they share one statement. */
  function claimAhead(mailId: number): Promise<Claim> {
    const askedAt = Date.now()
    const claimed = claim(mailId).then((mail) => ({ mail, askedAt, optedOut: askOptedOut(mail) }))
    // Awaited when its turn comes; until then a failure must not count as unhandled.
    claimed.catch(() => {})
    return claimed
  }

  /** Starts the lease of a mail this worker claimed again; false when another worker has taken it over. */
  async function renewed(mail: Selectable<MailTable>): Promise<boolean> {
    const row = await db
      .updateTable('mail')
      .set({ leaseUntil: leaseEnd() })
      .where('id', '=', mail.id)
      .where('status', '=', 'sending')
      .where('attempts', '=', mail.attempts)
      .returning('id')
      .executeTakeFirst()
    return row !== undefined
  }

  /**
   * Sends one claimed mail. Answers its outcome, and the marking of its row, which the job awaits at
   * its end: the next mail need not wait for this one's row. `next` asks for the job's next claim, once
   * this one is in hand.
   */
  async function sendOne(
    mailId: number,
    claimed: Promise<Claim>,
  ): Promise<{ outcome: Outcome; marked?: Promise<void>; refusal?: string }> {
    const claim = await claimed
    const { mail } = claim
    // A mail written apart from its request (a sign-in's thank-you, decision 053) is sent inside the
    // trace of the request it is for.
    // With OpenTelemetry, its sending is a span of that trace (decision 052).
    const { context, parent } = mail?.trace
      ? untrace({ [TRACE_KEY]: mail.trace })
      : { context: undefined, parent: undefined }
    if (!context) return sendClaimed(mailId, claim)
    return trace.inSpan('mail send', parent, (traceparent) =>
      trace.run(traceparent ? { ...context, traceparent } : context, () => sendClaimed(mailId, claim)),
    )
  }

  async function sendClaimed(
    mailId: number,
    claim: Claim,
  ): Promise<{ outcome: Outcome; marked?: Promise<void>; refusal?: string }> {
    const answer = await sendMail(mailId, claim)
    log({ mailId, outcome: answer.outcome }, 'mail handed over')
    return answer
  }

  async function sendMail(
    mailId: number,
    { mail, askedAt, optedOut: optedOutWhenClaimed }: Claim,
  ): Promise<{ outcome: Outcome; marked?: Promise<void>; refusal?: string }> {
    let stands = optedOutWhenClaimed
    if (mail && Date.now() - askedAt > RENEW_CLAIM_AFTER_MS) {
      if (!(await renewed(mail))) return { outcome: 'skipped' }
      stands = askOptedOut(mail)
    }
    if (!mail) {
      const row = await db.selectFrom('mail').select('status').where('id', '=', mailId).executeTakeFirst()
      if (row?.status === 'sending') throw new MailInFlightError(mailId)
      return { outcome: 'skipped' }
    }
    // Checked when it goes out (as it was claimed, a moment ago), not when it was written: an opt-out
    // in between stops it.
    if (await stands) {
      return { outcome: 'suppressed', marked: mark({ mailId, status: 'suppressed' }) }
    }
    if (mailer.kind === 'store') {
      return { outcome: 'stored', marked: mark({ mailId, status: 'stored' }) }
    }
    try {
      const outgoing = {
        id: mail.id,
        messageKey: mail.messageKey,
        toAddress: mail.toAddress,
        subject: mail.subject,
        textBody: mail.textBody,
        htmlBody: mail.htmlBody,
        attachments: mail.attachments as never,
        fromName: mail.fromName,
        replyTo: mail.replyTo,
        headers: mail.headers as Record<string, string> | null,
      }
      const open = (sealed: string | null, column: SealedMailColumn) =>
        sealed === null ? null : openLink(sealed, column)
      const { messageId } = await mailer.deliver(
        withUnsubscribeLink(
          outgoing,
          open(mail.unsubscribeUrl, 'mail.unsubscribe_url'),
          open(mail.privateLink, 'mail.private_link'),
        ),
      )
      return { outcome: 'sent', marked: mark({ mailId, status: 'sent', smtpMessageId: messageId }) }
    } catch (err) {
      const failure = classifySendFailure(err)
      const tooOld = Date.now() - new Date(mail.createdAt).getTime() >= retry.giveUpAfterMs
      if (failure.kind === 'final' || tooOld) {
        const lastError = failure.kind === 'final' ? failure.reason : `Gave up waiting: ${failure.reason}`
        return {
          outcome: 'failed',
          marked: mark({ mailId, status: 'failed', lastError, smtpReply: failure.reply }),
          refusal: `mail ${mailId}: ${failure.reply ?? lastError}`,
        }
      }
      const marked = mark({
        mailId,
        status: 'waiting',
        lastError: failure.reason,
        smtpReply: failure.reply,
        waitingFor: failure.kind,
        delayMs: retryDelayMs(mail.attempts, retry.delaysMs),
      })
      return { outcome: 'waiting', marked }
    }
  }

  /**
   * A job's mails, one after another, so a worker's jobs at once are its sends at once (mailer.ts); all
   * of them are claimed at its start, in one statement, and their opt-outs asked in one more. A mail that fails does not hold back
   * the rest: it waits in its row, or is refused for good and the job then fails with the server's reply
   * (no retry: a repeat would skip every mail). An error of our own (a claim, a mark) fails the job, and
   * BullMQ's retry sends only what is not sent yet. Answers each mail's outcome.
   */
  return async function send(payload: JobPayload<'mail', 'send'>): Promise<Outcome[]> {
    const mailIds = 'mailIds' in payload ? payload.mailIds : [payload.mailId]
    const outcomes: Outcome[] = []
    const marks: Promise<void>[] = []
    const refusals: string[] = []
    let failed: { error: unknown } | null = null
    // Asked together, so they go in one statement (`batched`).
    const claims = mailIds.map(claimAhead)
    for (const [i, mailId] of mailIds.entries()) {
      const claimed = claims[i] as Promise<Claim>
      try {
        const { outcome, marked, refusal } = await sendOne(mailId, claimed)
        metrics.count('delivery', { channel: 'mail', outcome: countedAs[outcome] })
        outcomes.push(outcome)
        if (marked) marks.push(marked)
        if (refusal) refusals.push(refusal)
      } catch (error) {
        failed ??= { error }
      }
    }
    // The job is done when every row says what became of its mail.
    const unmarked = (await Promise.allSettled(marks)).find((m) => m.status === 'rejected')
    if (failed) throw failed.error
    if (unmarked) throw unmarked.reason
    if (refusals.length > 0) throw new MailRefusedError(`Refused for good: ${refusals.join('; ')}`)
    return outcomes
  }
}
