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
}

/** Stores the mail and its send job in the caller's transaction: committed means it will go out. */
export async function queueMail(trx: Trx, outbox: Outbox, mail: MailContent): Promise<number> {
  const row = await trx
    .insertInto('mail')
    .values({
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      attachments: mail.attachments ? JSON.stringify(mail.attachments) : null,
      reAgentId: mail.forAgentId ?? null,
      fromName: mail.fromName ?? null,
      replyTo: mail.replyTo ?? null,
      headers: mail.headers ? JSON.stringify(mail.headers) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await outbox.add(trx, 'mail', 'send', { mailId: row.id })
  return row.id
}
