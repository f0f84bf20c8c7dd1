import { isConnectionLost } from './errors.ts'

/**
 * How long a write that records what already happened outside (a mail the SMTP server accepted, a
 * post a receiver answered) waits for the database to come back: longer than a restart or a failover
 * takes. Past it the job fails as before and its retry sees the row as it was left.
 */
const RECORD_WAIT_MS = 60_000

/**
 * Runs `work` again while it fails because the database is away (a restart, a failover, a dropped
 * connection: isConnectionLost), waiting 0.2 s, then longer, up to 2 s between tries, for at most
 * `forMs`; any other failure is thrown at once.
 *
 * Only for work that may run twice: a write whose answer was lost may have committed. It is for
 * recording an effect that cannot be taken back: failing there would have the job run again and send
 * the mail, the webhook or the Follow Up Boss post a second time.
 */
export async function whileDatabaseAway<T>(work: () => Promise<T>, forMs = RECORD_WAIT_MS): Promise<T> {
  const until = Date.now() + forMs
  for (let wait = 200; ; wait = Math.min(wait * 2, 2000)) {
    try {
      return await work()
    } catch (err) {
      if (!isConnectionLost(err) || Date.now() + wait > until) throw err
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
  }
}
