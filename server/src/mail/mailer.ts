// Mail goes out through nodemailer's own pieces: its MailComposer writes the message (encoded words,
// quoted-printable or base64 parts, RFC 2231 file names), its DKIM signer signs it when DKIM_* are set,
// and its pooled SMTP transport keeps a few connections open and shares them (decision 045). We keep
// no MIME or SMTP code of our own: a composed message is written out at once from nodemailer's own tree
// and encoder rather than through its streams (compose-at-once.ts, decision 060), byte for byte the same.
import { createPrivateKey } from 'node:crypto'
import { Transform, type TransformCallback } from 'node:stream'
import nodemailer from 'nodemailer'
import addressparser from 'nodemailer/lib/addressparser'
import MimeNode from 'nodemailer/lib/mime-node'
import { parseConnectionUrl } from 'nodemailer/lib/shared'
import type { Config } from '../config.ts'
import { composeAtOnce } from './compose-at-once.ts'

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
 * A message is sent again on a new connection at most once, and only when the kept connection it was
 * given turned out closed before a byte of it went (a server that drops idle connections): a send
 * that waited on a silent server must not wait twice.
 */
const SMTP_DEFAULTS = {
  connectionTimeout: 5000,
  greetingTimeout: 5000,
  socketTimeout: 10_000,
  maxConnections: 16,
  /** A connection says goodbye after this many mails: some servers limit it. */
  maxMessages: 100,
  maxRequeues: 1,
}

/**
 * The composed message handed on in one piece: MailComposer writes it in many small chunks (a header
 * line, a part's boundary), and the connection wrote each to its socket, a system call apiece.
 */
class WholeMessage extends Transform {
  private chunks: Buffer[] = []
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.chunks.push(chunk)
    done()
  }
  override _flush(done: TransformCallback) {
    done(null, Buffer.concat(this.chunks))
  }
}

type Envelope = ReturnType<MimeNode['getEnvelope']>

/**
 * A message written at once, handed on as nodemailer hands on a `raw` message: a node whose output is
 * the written message, with the envelope and Message-ID of the tree it was written from. Its envelope
 * is given afresh to every send, as the tree's is (read from its headers each time): the SMTP connection
 * writes what became of a send into the envelope it is given, and a send tried again on a new connection
 * (mailer defaults: a kept connection found closed) must not start with the failed try's answers.
 */
class WrittenMessage extends MimeNode {
  constructor(
    whole: Buffer,
    private readonly envelope: Envelope,
  ) {
    // It has no parts, so no boundary: a fixed base spares the random bytes a node draws for one.
    super('message/rfc822', { baseBoundary: 'written', disableFileAccess: true, disableUrlAccess: true })
    this.setRaw(whole)
  }
  override getEnvelope(): Envelope {
    return { ...this.envelope, to: [...this.envelope.to] }
  }
}

/**
 * The message nodemailer composed, written out at once (compose-at-once.ts: its streams cost more than
 * a thank-you's encoding), which the transport sends and DKIM signs as it did the tree. Null for a
 * message with a part only nodemailer's streams write: it goes as it was.
 */
function writtenAtOnce(message: MimeNode): MimeNode | null {
  const whole = composeAtOnce(message)
  if (!whole) return null
  const written = new WrittenMessage(whole, message.getEnvelope())
  written.setHeader('Message-ID', message.messageId())
  return written
}

/** A header value can carry no line break: one typed into a name ends up as a space. */
const oneLine = (value: string) => value.replace(/\r\n|\r|\n/g, ' ').trim()

/** Header names are ours (List-Unsubscribe…); anything but a field name's characters is dropped. */
function headerFields(headers: Record<string, string> | null | undefined) {
  if (!headers) return undefined
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const field = name.replace(/[^\x21-\x39\x3b-\x7e]/g, '')
    if (field) fields[field] = oneLine(value)
  }
  return fields
}

/**
 * The DKIM key, parsed once. nodemailer hands its `privateKey` to `crypto.Sign#sign`, which takes a key
 * object as well as PEM text; given the text, Node parsed the PEM again for every signature, which cost
 * more than the RSA signature itself. (nodemailer's types name only the text, hence the cast.)
 */
function signingKey(pem: string): string {
  return createPrivateKey(pem) as unknown as string
}

export function createMailer(config: Pick<Config, 'mail' | 'publicUrl'>): Mailer {
  const { smtpUrl, from, dkim } = config.mail
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
  const options = { ...SMTP_DEFAULTS, ...parseConnectionUrl(smtpUrl) }
  const connections = Number(options.maxConnections) || 1
  const transport = nodemailer.createTransport({
    ...options,
    pool: true,
    maxConnections: connections,
    // Mail is composed from stored rows only: nothing in one may make it read a file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(dkim ? { dkim: { ...dkim, privateKey: signingKey(dkim.privateKey) } } : {}),
  })
  transport.use('stream', (mail, done) => {
    const whole = writtenAtOnce(mail.message)
    // Written at once, it is one chunk already; otherwise its chunks are gathered into one.
    if (whole) mail.message = whole
    else mail.message.transform(() => new WholeMessage())
    done()
  })
  // MAIL_FROM ('Porchlight <no-reply@host>' or a bare address), parsed once.
  const [sender = { name: '', address: from }] = addressparser(from, { flatten: true })
  const host = new URL(config.publicUrl).hostname
  return {
    kind: 'smtp',
    connections,
    async deliver(mail) {
      const messageId = messageIdFor(mail, host)
      await transport.sendMail({
        // A guest mail shows its agent's name, at our sending address.
        from: { name: oneLine(mail.fromName || sender.name), address: sender.address },
        replyTo: mail.replyTo ? oneLine(mail.replyTo) : undefined,
        to: oneLine(mail.toAddress),
        subject: oneLine(mail.subject),
        text: mail.textBody,
        html: mail.htmlBody ?? undefined,
        headers: headerFields(mail.headers),
        messageId,
        // Its boundaries from the mail's own random key (a UUID written with its content, so no content
        // can hold them) rather than from random bytes drawn for them; nodemailer's own without a key.
        baseBoundary: mail.messageKey ?? undefined,
        attachments: mail.attachments?.map((a) => ({
          filename: oneLine(a.filename),
          content: a.content,
          contentType: oneLine(a.contentType),
        })),
      })
      return { messageId }
    },
    probe: async () => {
      await transport.verify()
    },
    close: () => transport.close(),
  }
}
