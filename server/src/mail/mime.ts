// A stored mail as the message an SMTP server receives (RFC 5322 with MIME), built in one pass with
// nodemailer's own encoders: encoded words for headers, quoted-printable for text, base64 for
// attachments. nodemailer's MailComposer gives the same message through a stream pipeline per part,
// which cost 0.5–0.7 ms of CPU per mail, most of a worker's time at a team's thousand invitations
// (decision 020).
import { randomUUID } from 'node:crypto'
import { domainToASCII } from 'node:url'
import * as base64 from 'nodemailer/lib/base64'
import * as mimeFuncs from 'nodemailer/lib/mime-funcs'
import * as qp from 'nodemailer/lib/qp'

export interface MimeAddress {
  name?: string | null
  address: string
}

export interface MimeMessage {
  from: MimeAddress
  to: string
  replyTo?: string | null
  subject: string
  messageId: string
  date?: Date
  headers?: Record<string, string> | null
  text: string
  html?: string | null
  attachments?: ReadonlyArray<{ filename: string; content: string; contentType: string }> | null
}

const CRLF = '\r\n'
const LINE = 76

/** A header value can carry no line break: one typed into a value ends up as a space. */
const oneLine = (value: string) => value.replace(/\r\n|\r|\n/g, ' ')

const header = (name: string, value: string) => mimeFuncs.foldLines(`${name}: ${value}`, LINE) + CRLF

/** A control character other than a tab, which a header can carry only inside an encoded word. */
const hasControl = (value: string) => {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true
  }
  return false
}

/** Unstructured text (a subject, a custom header): encoded words only where it is not plain ASCII. */
function headerText(value: string): string {
  const line = oneLine(value)
  return hasControl(line) ? mimeFuncs.encodeWord(line, 'Q', 52) : mimeFuncs.encodeWords(line, 'Q', 52)
}

/** An address with its IDN domain in ASCII (the envelope and headers carry only ASCII domains). */
export function asciiAddress(address: string): string {
  const at = address.lastIndexOf('@')
  if (at < 0 || /^[\x20-\x7e]*$/.test(address)) return address
  return `${address.slice(0, at)}@${domainToASCII(address.slice(at + 1)) || address.slice(at + 1)}`
}

/** 'Name <address>', with the name quoted or encoded as RFC 5322 and 2047 want it. */
function mailbox({ name, address }: MimeAddress): string {
  const addr = asciiAddress(oneLine(address).trim())
  const display = name ? oneLine(name).trim() : ''
  if (!display) return addr
  if (/^[\w ]*$/.test(display)) return `${display} <${addr}>`
  if (/^[\x20-\x7e]*$/.test(display)) return `"${display.replace(/["\\]/g, '\\$&')}" <${addr}>`
  return `${mimeFuncs.encodeWord(display, 'Q', 52)} <${addr}>`
}

/** A text part: 7bit when it is short-lined ASCII, quoted-printable otherwise; CRLF line ends either way. */
function textPart(contentType: string, body: string): string {
  const crlf = body.replace(/\r?\n|\r/g, CRLF)
  const plain = mimeFuncs.isPlainText(crlf) && !mimeFuncs.hasLongerLines(crlf, LINE)
  return (
    header('Content-Type', `${contentType}; charset=utf-8`) +
    header('Content-Transfer-Encoding', plain ? '7bit' : 'quoted-printable') +
    CRLF +
    (plain ? crlf : qp.wrap(qp.encode(crlf), LINE))
  )
}

function attachmentPart(a: { filename: string; content: string; contentType: string }): string {
  const filename = oneLine(a.filename)
  return (
    header(
      'Content-Type',
      mimeFuncs.buildHeaderValue({ value: oneLine(a.contentType), params: { name: filename } }),
    ) +
    header('Content-Transfer-Encoding', 'base64') +
    header('Content-Disposition', mimeFuncs.buildHeaderValue({ value: 'attachment', params: { filename } })) +
    CRLF +
    base64.wrap(base64.encode(Buffer.from(a.content, 'utf8')), LINE)
  )
}

/**
 * A multipart body. The boundary holds '=', which quoted-printable always encodes and base64 never
 * writes mid-line, and a random part, so no part's content can contain it.
 */
function multipart(subtype: 'alternative' | 'mixed', parts: string[]): string {
  const boundary = `=_porchlight_${subtype}_${randomUUID()}`
  return (
    header('Content-Type', `multipart/${subtype}; boundary="${boundary}"`) +
    CRLF +
    parts.map((part) => `--${boundary}${CRLF}${part}${CRLF}`).join('') +
    `--${boundary}--${CRLF}`
  )
}

/** The whole message, headers and body, with CRLF line ends; SMTP's dot-stuffing is left to the connection. */
export function composeMime(message: MimeMessage): string {
  const date = (message.date ?? new Date()).toUTCString().replace(/GMT/, '+0000')
  let head =
    header('From', mailbox(message.from)) +
    (message.replyTo ? header('Reply-To', mailbox({ address: message.replyTo })) : '') +
    header('To', mailbox({ address: message.to })) +
    header('Subject', headerText(message.subject)) +
    header('Message-ID', oneLine(message.messageId)) +
    header('Date', date) +
    header('MIME-Version', '1.0')
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    // Names are ours (List-Unsubscribe…); anything but a field name's characters is dropped.
    const field = name.replace(/[^\x21-\x39\x3b-\x7e]/g, '')
    if (field) head += header(field, headerText(value))
  }
  const text = textPart('text/plain', message.text)
  const body = message.html ? multipart('alternative', [text, textPart('text/html', message.html)]) : text
  const attachments = message.attachments ?? []
  return head + (attachments.length ? multipart('mixed', [body, ...attachments.map(attachmentPart)]) : body)
}
