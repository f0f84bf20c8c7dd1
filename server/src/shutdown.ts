import type { FastifyBaseLogger } from 'fastify'
import type { Logger } from 'pino'

/** Finishes in-flight work on SIGTERM/SIGINT, then exits; a second signal exits at once. */
export function onShutdown(logger: Logger | FastifyBaseLogger, close: () => Promise<unknown>): void {
  let closing = false
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1)
      closing = true
      logger.info({ signal }, 'shutting down')
      close().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'shutdown failed')
          process.exit(1)
        },
      )
    })
  }
}
