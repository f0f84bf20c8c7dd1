import type { FastifyBaseLogger } from 'fastify'
import type { Logger } from 'pino'

/**
 * How long after `graceMs` a process still closing is ended anyway: its close is stuck (a server that
 * never answers), and an orchestrator would kill it soon after (Kubernetes' default grace is 30 s,
 * docker stop's 10 s). What it did not finish is picked up again: outbox rows and jobs wait in
 * PostgreSQL and Redis, and a job's lock lapses to another worker.
 */
const STOP_AFTER_GRACE_MS = 1000

const lastly: (() => Promise<unknown>)[] = []

/** Work for after the close and before the exit (OpenTelemetry's last spans), within the same grace. */
export function beforeExit(work: () => Promise<unknown>): void {
  lastly.push(work)
}

/**
 * Finishes in-flight work on SIGTERM/SIGINT within `graceMs` (close is given it), then exits; a
 * second signal, or a close still running STOP_AFTER_GRACE_MS after the grace, exits at once.
 */
export function onShutdown(
  logger: Logger | FastifyBaseLogger,
  graceMs: number,
  close: (graceMs: number) => Promise<unknown>,
): void {
  let closing = false
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1)
      closing = true
      const startedAt = Date.now()
      logger.info({ signal, graceMs }, 'shutting down')
      setTimeout(() => {
        logger.error({ graceMs }, 'shutdown did not finish in time; exiting')
        process.exit(1)
      }, graceMs + STOP_AFTER_GRACE_MS).unref()
      close(graceMs)
        .then(async () => {
          for (const work of lastly) await work().catch(() => {})
        })
        .then(
          () => {
            logger.info({ ms: Date.now() - startedAt }, 'shut down')
            process.exit(0)
          },
          (err) => {
            logger.error({ err }, 'shutdown failed')
            process.exit(1)
          },
        )
    })
  }
}
