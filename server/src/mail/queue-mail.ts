import type { Trx } from '../db/transaction.ts'
import type { Outbox } from '../jobs/outbox.ts'

export interface MailContent {
  to: string
  subject: string
  text: string
  html: string
  attachments?: Array<{ filename: string; content: string; contentType: string }>
  /** A mail to a guest, sent for this agent: an opt-out from the agent suppresses it at send time. */
  forAgentId?: number
  fromName?: string
  replyTo?: string
  headers?: Record<string, string>
  /** The unsubscribe link, sealed; the bodies hold UNSUBSCRIBE_LINK in its place (unsubscribe-link.ts). */
  unsubscribeUrl?: string
  /** A link that opens something without a sign-in, sealed; the bodies hold PRIVATE_LINK in its place. */
  privateLink?: string
  /**
   * The trace of the request the mail is for (JSON, as jobs/outbox.ts `carriedTrace` gives it), when a
   * batch written for many requests queues it (decision 053): it is sent inside that trace.
   */
  trace?: string | null
}

/** Stores the mail and its send job in the caller's transaction: committed means it will go out. */
export async function queueMail(trx: Trx, outbox: Outbox, mail: MailContent): Promise<number> {
  const [id] = await queueMails(trx, outbox, [mail])
  if (id === undefined) throw new Error('no mail was stored')
  return id
}

// Rows per statement: a team's invitations go out in a few statements, well under PostgreSQL's limit
// of 65,535 parameters (ten a mail).
const MAILS_PER_STATEMENT = 500

/**
 * Mails per send job. A job costs the worker about as much as sending a mail does (BullMQ's fetch and
 * finish scripts, an outbox row relayed and marked done), so a burst goes ten to a job; the worker's
 * sixteen jobs at once keep sixteen sends in flight, each job sending its mails one after another.
 */
export const MAILS_PER_JOB = 10

/**
 * `queueMail` for many mails (a team's invitations): a few statements in all, not two per mail.
 * Answers the new mails' ids.
 */
export async function queueMails(trx: Trx, outbox: Outbox, mails: MailContent[]): Promise<number[]> {
  const ids: number[] = []
  for (let i = 0; i < mails.length; i += MAILS_PER_STATEMENT) {
    const rows = await trx
      .insertInto('mail')
      .values(
        mails.slice(i, i + MAILS_PER_STATEMENT).map((mail) => ({
          toAddress: mail.to,
          subject: mail.subject,
          textBody: mail.text,
          htmlBody: mail.html,
          attachments: mail.attachments ? JSON.stringify(mail.attachments) : null,
          reAgentId: mail.forAgentId ?? null,
          fromName: mail.fromName ?? null,
          replyTo: mail.replyTo ?? null,
          headers: mail.headers ? JSON.stringify(mail.headers) : null,
          unsubscribeUrl: mail.unsubscribeUrl ?? null,
          privateLink: mail.privateLink ?? null,
          ...(mail.trace ? { trace: mail.trace } : {}),
        })),
      )
      .returning('id')
      .execute()
    const stored = rows.map((row) => row.id)
    ids.push(...stored)
    const jobs: Array<{ mailIds: number[] }> = []
    for (let j = 0; j < stored.length; j += MAILS_PER_JOB)
      jobs.push({ mailIds: stored.slice(j, j + MAILS_PER_JOB) })
    await outbox.addEach(trx, 'mail', 'send', jobs)
  }
  return ids
}
