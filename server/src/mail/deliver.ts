import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { Mailer } from './mailer.ts'

/**
 * How long a worker owns a mail it is sending: longer than an SMTP exchange normally takes (the
 * mailer gives up on a silent server after 10 s), short enough that a dead worker's mails go out soon.
 */
export const SEND_LEASE_MS = 20_000

/** A mail another worker is sending right now: the job waits (BullMQ retries it) rather than sends twice. */
export class MailInFlightError extends Error {
  constructor(mailId: number) {
    super(`mail ${mailId} is being sent by another worker`)
  }
}

/**
 * Sends one stored mail, holding no transaction or row lock across the SMTP exchange: one conditional
 * statement claims the row with a lease, the mail is sent, a second statement marks it sent. A mail
 * already sent (or stored for the dev mailbox) is skipped, so a job that runs twice — a retry, a
 * repeated relay, two workers at once — still delivers once. Only a worker that dies between the SMTP
 * answer and marking the row leaves it to be sent again once the lease has run out, with the same
 * Message-ID, so the receiving server can tell it is a repeat (docs/guarantees.md).
 */
export function createMailProcessor(
  db: Db,
  mailer: Mailer,
  /** Whether the address opted out of mail from this agent: such a mail is suppressed, not sent. */
  optedOut: (agentId: number, email: string) => Promise<boolean> = async () => false,
) {
  return async function send({
    mailId,
  }: {
    mailId: number
  }): Promise<'sent' | 'stored' | 'skipped' | 'suppressed'> {
    const mail = await db
      .updateTable('mail')
      .set({
        status: 'sending',
        leaseUntil: sql<Date>`now() + ${`${SEND_LEASE_MS} milliseconds`}::interval`,
        attempts: sql<number>`attempts + 1`,
      })
      .where('id', '=', mailId)
      .where((eb) =>
        eb.or([
          eb('status', 'in', ['queued', 'failed']),
          eb.and([eb('status', '=', 'sending'), eb('leaseUntil', '<', sql<Date>`now()`)]),
        ]),
      )
      .returningAll()
      .executeTakeFirst()
    if (!mail) {
      const row = await db.selectFrom('mail').select('status').where('id', '=', mailId).executeTakeFirst()
      if (row?.status === 'sending') throw new MailInFlightError(mailId)
      return 'skipped'
    }
    const mark = (values: {
      status: 'sent' | 'stored' | 'failed' | 'suppressed'
      smtpMessageId?: string | null
      lastError?: string
    }) =>
      db
        .updateTable('mail')
        .set({
          ...values,
          leaseUntil: null,
          ...(values.status === 'sent' || values.status === 'stored' ? { sentAt: new Date() } : {}),
        })
        .where('id', '=', mailId)
        .where('status', '=', 'sending')
        .execute()
    // Checked when it goes out, not when it was written: an opt-out in between stops it.
    if (mail.reAgentId !== null && (await optedOut(mail.reAgentId, mail.toAddress))) {
      await mark({ status: 'suppressed' })
      return 'suppressed'
    }
    if (mailer.kind === 'store') {
      await mark({ status: 'stored' })
      return 'stored'
    }
    try {
      const { messageId } = await mailer.deliver({
        id: mail.id,
        toAddress: mail.toAddress,
        subject: mail.subject,
        textBody: mail.textBody,
        htmlBody: mail.htmlBody,
        attachments: mail.attachments as never,
        fromName: mail.fromName,
        replyTo: mail.replyTo,
        headers: mail.headers as Record<string, string> | null,
      })
      await mark({ status: 'sent', smtpMessageId: messageId })
      return 'sent'
    } catch (err) {
      // Recorded as 'failed' with the reason for an operator; the job's retry tries again.
      await mark({ status: 'failed', lastError: String(err) })
      throw err
    }
  }
}
