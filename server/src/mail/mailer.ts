import addressparser from 'nodemailer/lib/addressparser'
import { parseConnectionUrl } from 'nodemailer/lib/shared'
import type { Config } from '../config.ts'
import { asciiAddress, composeMime } from './mime.ts'
import { createSmtpPool, type SmtpOptions } from './smtp-pool.ts'

export interface OutgoingMail {
  id: number
  /** The random part of its Message-ID, kept with the mail's row. */
  messageKey?: string | null
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
  /** Resolves when the SMTP server answers (connect, EHLO, login); rejects with the reason otherwise. */
  probe(): Promise<void>
  close(): void
}

/** Without SMTP, mails are only marked stored: as many at once as any other job. */
const STORED_AT_ONCE = 8

/**
 * A Message-ID unique worldwide (a random key given when the mail was written), and the same for every
 * send of that mail row, so a receiving server recognises a resend. A mail written before keys existed
 * keeps the ID it was first sent with.
 */
export function messageIdFor(mail: Pick<OutgoingMail, 'id' | 'messageKey'>, host: string): string {
  return mail.messageKey ? `<${mail.messageKey}@${host}>` : `<mail-${mail.id}@${host}>`
}

/**
 * Kept connections, each bounded: a send never outlives its lease on the mail row (deliver.ts), so two
 * workers never overlap. SMTP_URL's own query (`?socketTimeout=…`, `?maxConnections=…`) overrides these.
 */
const SMTP_DEFAULTS = {
  connectionTimeout: 5000,
  greetingTimeout: 5000,
  socketTimeout: 10_000,
  maxConnections: 16,
}

export function createMailer(config: Pick<Config, 'mail' | 'publicUrl'>): Mailer {
  const { smtpUrl, from } = config.mail
  if (!smtpUrl) {
    return {
      kind: 'store',
      connections: STORED_AT_ONCE,
      deliver: async () => ({ messageId: null }),
      probe: async () => {},
      close: () => {},
    }
  }
  // Read as nodemailer reads a connection URL, so its settings (TLS, login, timeouts) mean what they did.
  const { maxConnections, ...options } = {
    ...SMTP_DEFAULTS,
    ...parseConnectionUrl(smtpUrl),
  } as SmtpOptions & { maxConnections: number }
  const connections = Number(maxConnections) || 1
  const smtp = createSmtpPool(options, connections)
  // MAIL_FROM ('Porchlight <no-reply@host>' or a bare address), parsed once.
  const [sender = { name: '', address: from }] = addressparser(from, { flatten: true })
  const host = new URL(config.publicUrl).hostname
  return {
    kind: 'smtp',
    connections,
    async deliver(mail) {
      const messageId = messageIdFor(mail, host)
      const message = composeMime({
        // A guest mail shows its agent's name, at our sending address.
        from: { name: mail.fromName || sender.name, address: sender.address },
        replyTo: mail.replyTo,
        headers: mail.headers,
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.textBody,
        html: mail.htmlBody,
        messageId,
        attachments: mail.attachments,
      })
      await smtp.send({ from: asciiAddress(sender.address), to: asciiAddress(mail.toAddress) }, message)
      return { messageId }
    },
    probe: () => smtp.probe(),
    close: () => smtp.close(),
  }
}
