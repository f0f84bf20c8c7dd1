import type { Config } from '../config.ts'
import { asciiAddress, composeMime } from './mime.ts'
import { createSmtpPool } from './smtp-pool.ts'

export interface OutgoingMail {
  id: number
  toAddress: string
  subject: string
  textBody: string
  htmlBody: string | null
  attachments?: Array<{ filename: string; content: string; contentType: string }> | null
  /** Shown as the sender's name (the agent a guest mail is from), at our sending address. */
  fromName?: string | null
  replyTo?: string | null
  headers?: Record<string, string> | null
}

export interface Mailer {
  /** 'smtp' sends through SMTP_URL; 'store' keeps mail in the database for /dev/mailbox. */
  kind: 'smtp' | 'store'
  /**
   * How many mails it sends at once: the SMTP connections it keeps. A worker runs no more send jobs
   * than this, so a claimed mail never waits for a connection while its lease runs (deliver.ts).
   */
  connections: number
  deliver(mail: OutgoingMail): Promise<{ messageId: string | null }>
  close(): void
}

/** Without SMTP, mails are only marked stored: as many at once as any other job. */
const STORED_AT_ONCE = 8

/** A stable Message-ID per mail row lets a receiving server recognise a resend of the same mail. */
export function messageIdFor(mailId: number, publicUrl: string): string {
  return `<mail-${mailId}@${new URL(publicUrl).hostname}>`
}

/** The address in MAIL_FROM ('Porchlight <no-reply@host>' or a bare address). */
function fromAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from
}

/** MAIL_FROM as a name and an address ('Porchlight <no-reply@host>' → Porchlight, no-reply@host). */
function fromMailbox(from: string): { name: string | null; address: string } {
  const name = /^\s*"?([^"<]*?)"?\s*</.exec(from)?.[1]?.trim()
  return { name: name || null, address: fromAddress(from) }
}

export function createMailer(config: Pick<Config, 'mail' | 'publicUrl'>): Mailer {
  const { smtpUrl, from } = config.mail
  if (!smtpUrl) {
    return {
      kind: 'store',
      connections: STORED_AT_ONCE,
      deliver: async () => ({ messageId: null }),
      close: () => {},
    }
  }
  // Pooled: a few SMTP connections kept open serve every send, rather than one connection per mail.
  const pooled = new URL(smtpUrl)
  if (!pooled.searchParams.has('maxConnections')) pooled.searchParams.set('maxConnections', '16')
  const connections = Number(pooled.searchParams.get('maxConnections')) || 1
  // Bounded: a send never outlives its lease on the mail row (deliver.ts), so two workers never overlap.
  for (const [name, ms] of [
    ['connectionTimeout', '5000'],
    ['greetingTimeout', '5000'],
    ['socketTimeout', '10000'],
  ] as const) {
    if (!pooled.searchParams.has(name)) pooled.searchParams.set(name, ms)
  }
  const smtp = createSmtpPool(pooled.toString(), connections)
  const sender = fromAddress(from)
  const ours = fromMailbox(from)
  return {
    kind: 'smtp',
    connections,
    async deliver(mail) {
      const messageId = messageIdFor(mail.id, config.publicUrl)
      const message = composeMime({
        from: mail.fromName ? { name: mail.fromName, address: sender } : ours,
        replyTo: mail.replyTo,
        headers: mail.headers,
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.textBody,
        html: mail.htmlBody,
        messageId,
        attachments: mail.attachments,
      })
      await smtp.send({ from: asciiAddress(sender), to: asciiAddress(mail.toAddress) }, message)
      return { messageId }
    },
    close: () => smtp.close(),
  }
}
