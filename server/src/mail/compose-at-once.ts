// A message nodemailer has composed, written out in one synchronous pass instead of through its streams.
//
// nodemailer's MailComposer decides everything about a message (its MIME tree, content types, transfer
// encodings, encoded header words, folding, boundaries) and MimeNode#build writes it out through Node
// streams: a pipeline per part, an encoder stream per text, a setImmediate between parts. For a
// thank-you (plain text and HTML, a few hundred bytes each) that machinery costs more than the encoding
// itself (decision 060). Here the same tree is written with the same library's own pieces, called
// directly: each node's `buildHeaders()`, its quoted-printable encoder, and the multipart layout
// MimeNode#stream writes. A tree with anything else in it (a part given raw, a stream,
// a file, base64) is left to nodemailer's streams: `null`. A test compares the two byte for byte.
import type MimeNode from 'nodemailer/lib/mime-node'
import * as qp from 'nodemailer/lib/qp'

/** A stream's hooks (Node's API for implementing one), called here directly: both answer at once. */
type TransformHooks = {
  _transform(chunk: Buffer, encoding: string, done: () => void): void
  _flush(done: () => void): void
}
const nothing = () => {}

/**
 * A text in quoted-printable as MimeNode#stream encodes it: its own encoder (as MimeNode makes it for a
 * text/* node) given the whole content as one chunk, as MimeNode hands it over, its output taken as it
 * is pushed. The encoder holds back a chunk's trailing whitespace until it is told what follows, so its
 * output is its own and not `wrap(encode(…))`.
 */
function quotedPrintable(content: string | Buffer): string {
  const encoder = new qp.Encoder({ binary: false })
  let out = ''
  encoder.push = (chunk: unknown) => {
    if (chunk !== null) out += String(chunk)
    return true
  }
  const hooks = encoder as unknown as TransformHooks
  hooks._transform(Buffer.isBuffer(content) ? content : Buffer.from(content), 'buffer', nothing)
  hooks._flush(nothing)
  return out
}

/** What a node's own content is written as; null when only nodemailer's streams can write it. */
function contentOf(node: MimeNode): string | Buffer | null {
  const { content } = node
  if (typeof content !== 'string' && !Buffer.isBuffer(content)) return null
  const encoding = node.getTransferEncoding()
  if (encoding === 'quoted-printable') {
    // Text only: outside text/* nodemailer encodes lone CR and LF as data ('binary'), not done here.
    return /^text\//i.test(node.contentType ?? '') ? quotedPrintable(content) : null
  }
  // base64 is written by an encoder stream whose line breaking is its own: left to it.
  if (encoding === 'base64') return null
  // 7bit, 8bit and anything else nodemailer passes as it is.
  return content
}

/** Whether a node was given its output ready made (setRaw): it writes that instead of its parts. */
const isRaw = (node: MimeNode) => Boolean((node as unknown as { _raw?: unknown })._raw)

function write(node: MimeNode, out: Array<string | Buffer>): boolean {
  if (isRaw(node)) return false
  // As MimeNode#stream: the headers (the root's get Date, Message-ID and MIME-Version here), a blank
  // line, the node's content, then each child after its boundary line and the closing boundary.
  out.push(`${node.buildHeaders()}\r\n\r\n`)
  if (node.content) {
    const content = contentOf(node)
    if (content === null) return false
    out.push(content)
  }
  if (node.multipart) {
    for (const [i, child] of node.childNodes.entries()) {
      out.push(`${i > 0 ? '\r\n' : ''}--${node.boundary}\r\n`)
      if (!write(child, out)) return false
    }
    out.push(`\r\n--${node.boundary}--\r\n`)
  }
  return true
}

/**
 * The message under `root` as MimeNode#build writes it, or null when it holds a part only nodemailer's
 * streams can write (or a root given `newline`, whose transforms are left to it).
 */
export function composeAtOnce(root: MimeNode): Buffer | null {
  if (root.newline) return null
  const out: Array<string | Buffer> = []
  if (!write(root, out)) return null
  const message = Buffer.concat(out.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)))
  // As its last stage (LastNewline): the message ends with a line break.
  const last = message.at(-1)
  if (last === 0x0a) return message
  return Buffer.concat([message, Buffer.from(last === 0x0d ? '\n' : '\r\n')])
}
