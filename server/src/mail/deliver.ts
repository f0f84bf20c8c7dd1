import type { Db } from '../db/database.ts'
import { inTransaction } from '../db/transaction.ts'
import type { Mailer } from './mailer.ts'

/**
 * Sends one stored mail. The row is locked while it is sent and a mail already sent (or stored for
 * the dev mailbox) is skipped, so a job that runs twice — a retry, a repeated relay, two workers at
 * once — still delivers once.
 */
export function createMailProcessor(db: Db, mailer: Mailer) {
  return async function send({ mailId }: { mailId: number }): Promise<'sent' | 'stored' | 'skipped'> {
    const outcome = await inTransaction(db, async (trx) => {
      const mail = await trx
        .selectFrom('mail')
        .selectAll()
        .where('id', '=', mailId)
        .where('status', 'in', ['queued', 'failed'])
        .forUpdate()
        .executeTakeFirst()
      if (!mail) return 'skipped'
      if (mailer.kind === 'store') {
        await trx
          .updateTable('mail')
          .set({ status: 'stored', sentAt: new Date(), attempts: mail.attempts + 1 })
          .where('id', '=', mailId)
          .execute()
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
        })
        await trx
          .updateTable('mail')
          .set({ status: 'sent', smtpMessageId: messageId, sentAt: new Date(), attempts: mail.attempts + 1 })
          .where('id', '=', mailId)
          .execute()
        return 'sent'
      } catch (err) {
        // Committed as 'failed' with the reason for an operator; the job's retry tries again.
        await trx
          .updateTable('mail')
          .set({ status: 'failed', lastError: String(err), attempts: mail.attempts + 1 })
          .where('id', '=', mailId)
          .execute()
        return { failed: err }
      }
    })
    if (typeof outcome === 'object') throw outcome.failed
    return outcome
  }
}
