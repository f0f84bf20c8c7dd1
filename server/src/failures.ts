/**
 * Work that runs after the caller was answered (after-commit callbacks, socket handlers, the outbox
 * relay, jobs) has nobody to throw to. It reports here: every failure is logged with its context and
 * counted per source, and the counts are on `GET /api/ready` for whoever watches the process.
 */

export type FailureSource =
  | 'after-commit'
  | 'stats-event'
  | 'outbox-relay'
  | 'outbox-parked'
  | 'socket-handshake'
  | 'socket-watch'
  | 'job'
  | 'worker'
  | 'mail-server'
  | 'mail-retry'
  | 'push'
  | 'stats-fold'
  | 'guest-welcome'
  | 'session-slide'
  | 'claim-event'

export interface FailureLogger {
  error(context: object, message: string): void
}

const counts = new Map<FailureSource, number>()
let logger: FailureLogger = {
  // Before a process names its logger (a command-line tool), failures still reach stderr.
  error: (context, message) => console.error(message, context),
}

export const backgroundFailures = {
  /** The process's logger; the composition root sets it once. */
  useLogger(next: FailureLogger): void {
    logger = next
  },

  report(source: FailureSource, err: unknown, context: Record<string, unknown> = {}): void {
    counts.set(source, (counts.get(source) ?? 0) + 1)
    logger.error({ source, err, ...context }, `background failure: ${source}`)
  },

  /** Failures so far in this process, per source. */
  counts(): Partial<Record<FailureSource, number>> {
    return Object.fromEntries(counts)
  },
}
