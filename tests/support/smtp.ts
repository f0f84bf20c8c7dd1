import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer, type SMTPServerOptions } from 'smtp-server'

export interface ReceivedMail {
  to: string[]
  subject: string
  text: string
  html: string
  messageId: string | undefined
  raw: ParsedMail
  /** The message as it arrived, after the SMTP transfer (headers and MIME body). */
  rawSource: string
}

/**
 * A real SMTP server in this process that keeps every accepted message. `server` adds smtp-server's
 * own options (a required login, a short idle timeout, an `onConnect` that refuses with 421); `port`
 * listens on a given port (a server that comes back where it was); `connections` counts the clients
 * connected now and the most there ever were at once.
 */
export async function startSmtpSink(
  options: { delayMs?: number; port?: number; server?: Partial<SMTPServerOptions> } = {},
) {
  const received: ReceivedMail[] = []
  const waiters = new Set<() => void>()
  const connections = { now: 0, most: 0, opened: 0 }
  // Messages whose data has come in, accepted or still waiting out `delayMs` before the answer.
  const arrived = { count: 0 }
  let delayMs = options.delayMs ?? 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    ...options.server,
    onConnect(_session, callback) {
      connections.now++
      connections.opened++
      connections.most = Math.max(connections.most, connections.now)
      if (options.server?.onConnect) options.server.onConnect(_session, callback)
      else callback()
    },
    onClose() {
      connections.now--
    },
    onData(stream, session, callback) {
      // A server of the test's own decides (refuses the message after DATA, say).
      if (options.server?.onData) return options.server.onData(stream, session, callback)
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      new Promise((resolve, reject) => stream.on('end', resolve).on('error', reject))
        .then(() => {
          arrived.count++
          return simpleParser(Buffer.concat(chunks))
        })
        .then(async (mail) => {
          // A slow server keeps sends in flight, as a real one does under load.
          if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs))
          const to = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? ''))
          received.push({
            to,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            messageId: mail.messageId,
            raw: mail,
            rawSource: Buffer.concat(chunks).toString('utf8'),
          })
          for (const wake of waiters) wake()
          callback()
        })
        .catch(callback)
    },
  })
  // A sender that dies mid-conversation (a killed worker) resets its connection; that is not our error.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET') throw err
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    connections,
    /** How many messages came in so far, `received` or still being answered (with `delayMs`). */
    arrivedCount: () => arrived.count,
    /** From now on, each message is accepted this long after its data came in. */
    setDelay(ms: number) {
      delayMs = ms
    },
    /** Waits until `count` messages matching `match` have arrived. */
    async waitFor(
      match: (m: ReceivedMail) => boolean,
      count = 1,
      timeoutMs = 10_000,
    ): Promise<ReceivedMail[]> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = received.filter(match)
        if (found.length >= count) return found
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`expected ${count} mail(s), got ${found.length}`)
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake)
            resolve()
          }
          waiters.add(wake)
          setTimeout(wake, Math.min(left, 200))
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>
