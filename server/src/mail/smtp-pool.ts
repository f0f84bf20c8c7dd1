// A few SMTP connections kept open and shared by every send (nodemailer's SMTPConnection, the client
// under its transports). The mailer hands it a composed message (mime.ts); going through
// nodemailer's transport instead cost another 0.4 ms of CPU per mail, composing the message again as
// a stream (decision 020).

import SMTPConnection from 'nodemailer/lib/smtp-connection'

/** A connection says goodbye after this many mails, as nodemailer's pool does: some servers limit it. */
const MAILS_PER_CONNECTION = 100

interface Kept {
  smtp: SMTPConnection
  sent: number
  busy: boolean
  gone: boolean
}

/** nodemailer's connection options, with the login SMTP_URL may carry. */
export type SmtpOptions = SMTPConnection.Options & { auth?: SMTPConnection.Credentials }

export interface SmtpPool {
  /** Sends one message to one recipient; resolves once the server has accepted it. */
  send(envelope: { from: string; to: string }, message: string): Promise<void>
  /**
   * Whether the server answers: a connection of its own, greeted, EHLO and login (when SMTP_URL has
   * one), then QUIT. Resolves when all of it succeeded; rejects with the reason otherwise.
   */
  probe(): Promise<void>
  close(): void
}

/** Errors that mean the connection was gone, not that the server refused the mail or was slow. */
const connectionLost = (err: SMTPConnection.SMTPError) =>
  err.code === 'ECONNECTION' || err.code === 'ESOCKET' || err.responseCode === 421

/**
 * A kept connection found gone fails at once. Only such a failure is tried again: a send that failed
 * after waiting (a silent server) must not wait twice, or it could outlive its lease (deliver.ts).
 */
const STALE_FAILS_WITHIN_MS = 1000

/** At most `size` connections to the server `options` names are open at once; a send waits for a free one. */
export function createSmtpPool({ auth, ...options }: SmtpOptions, size: number): SmtpPool {
  const idle: Kept[] = []
  const waiting: Array<(kept: Kept | null) => void> = []
  let open = 0
  let closed = false

  /** Frees the connection's place: a waiting send gets it, to open a connection of its own. */
  function drop(kept: Kept) {
    if (kept.gone) return
    kept.gone = true
    open--
    const at = idle.indexOf(kept)
    if (at >= 0) idle.splice(at, 1)
    kept.smtp.close()
    waiting.shift()?.(null)
  }

  function release(kept: Kept) {
    kept.busy = false
    if (closed || kept.sent >= MAILS_PER_CONNECTION) {
      kept.smtp.quit()
      drop(kept)
      return
    }
    const next = waiting.shift()
    if (next) next(kept)
    else idle.push(kept)
  }

  async function connect(): Promise<Kept> {
    const smtp = new SMTPConnection(options)
    const kept: Kept = { smtp, sent: 0, busy: true, gone: false }
    // Before the handshake an error is the connect's; after it, a kept connection the server closed (or
    // timed out) while idle leaves the pool, and one in use hears it in its send's callback.
    const leaveWhenIdle = () => {
      if (!kept.busy) drop(kept)
    }
    smtp.on('end', leaveWhenIdle)
    let failConnect = (_err: Error) => {}
    smtp.on('error', (err) => failConnect(err))
    await new Promise<void>((resolve, reject) => {
      failConnect = reject
      smtp.connect((err) => (err ? reject(err) : resolve()))
    }).catch((err) => {
      drop(kept)
      throw err
    })
    failConnect = leaveWhenIdle
    if (auth) {
      await new Promise<void>((resolve, reject) =>
        smtp.login(auth, (err) => (err ? reject(err) : resolve())),
      ).catch((err) => {
        drop(kept)
        throw err
      })
    }
    return kept
  }

  async function acquire(): Promise<Kept> {
    const kept = idle.pop()
    if (kept) {
      kept.busy = true
      return kept
    }
    if (open < size) {
      open++
      return connect()
    }
    const handed = await new Promise<Kept | null>((resolve) => waiting.push(resolve))
    if (handed) {
      handed.busy = true
      return handed
    }
    open++
    return connect()
  }

  function sendOn(kept: Kept, envelope: { from: string; to: string }, message: string) {
    return new Promise<void>((resolve, reject) =>
      kept.smtp.send({ from: envelope.from, to: [envelope.to] }, message, (err) =>
        err ? reject(err) : resolve(),
      ),
    )
  }

  return {
    async send(envelope, message) {
      if (closed) throw new Error('the mail pool is closed')
      for (let attempt = 1; ; attempt++) {
        const kept = await acquire()
        const reused = kept.sent > 0
        const started = Date.now()
        try {
          await sendOn(kept, envelope, message)
          kept.sent++
          release(kept)
          return
        } catch (err) {
          kept.busy = false
          drop(kept)
          // A kept connection the server had dropped while idle: once more, on a new connection.
          const stale = reused && Date.now() - started < STALE_FAILS_WITHIN_MS
          if (stale && attempt === 1 && connectionLost(err as SMTPConnection.SMTPError)) continue
          throw err
        }
      }
    },
    async probe() {
      const smtp = new SMTPConnection(options)
      // A failure while connecting is told as an 'error' event, not to connect's callback; one in the
      // middle of a step fails that step.
      let fail = (_err: Error) => {}
      smtp.on('error', (err) => fail(err))
      const step = (start: (done: (err?: Error | null) => void) => void) =>
        new Promise<void>((resolve, reject) => {
          fail = reject
          start((err) => (err ? reject(err) : resolve()))
        })
      try {
        await step((done) => smtp.connect(done))
        if (auth) await step((done) => smtp.login(auth, (err) => done(err)))
      } catch (err) {
        smtp.close()
        throw err
      }
      fail = () => {}
      smtp.quit()
    },
    close() {
      closed = true
      for (const kept of [...idle]) {
        kept.smtp.quit()
        drop(kept)
      }
    },
  }
}
