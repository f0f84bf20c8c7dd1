// The worker process (bin/worker.ts imports it once telemetry, if any, is under way).
import fs from 'node:fs'
import { sql } from 'kysely'
import pino from 'pino'
import { configOrExit, loadConfig, requireServers } from '../config.ts'
import { createDb, type Db } from '../db/database.ts'
import { serveMetrics } from '../http/observe.ts'
import { traceLogFields } from '../lib/trace.ts'
import { createRedis, whenReady } from '../redis.ts'
import { onShutdown } from '../shutdown.ts'
import { startWorkerRuntime } from './worker.ts'

const HEARTBEAT_MS = 5000

/**
 * The container health check reads the file's age (docker-compose.yml). It is touched only while this
 * process can reach both PostgreSQL and Redis, so a worker that cannot work turns unhealthy.
 */
function startHeartbeat(file: string, db: Db, redisUrl: string) {
  const redis = createRedis(redisUrl, 'command')
  let beating = false
  const beat = async () => {
    if (beating) return
    beating = true
    try {
      if (!(await whenReady(redis, 2000))) return
      await Promise.all([redis.ping(), sql`select 1`.execute(db)])
      await fs.promises.writeFile(file, `${new Date().toISOString()}\n`)
    } catch {
      // Not touched: the file ages and the health check fails until both answer again.
    } finally {
      beating = false
    }
  }
  void beat()
  const timer = setInterval(beat, HEARTBEAT_MS)
  return {
    stop() {
      clearInterval(timer)
      redis.disconnect()
      fs.rmSync(file, { force: true })
    },
  }
}

const config = configOrExit(() => requireServers(loadConfig()))
// Each line of a job carries the id of the request that caused it (decision 047).
const logger = pino({ level: config.logLevel, name: 'worker', mixin: traceLogFields })
const db = await createDb(config.db)
const runtime = startWorkerRuntime(config, db.db, logger)
const heartbeat = config.workerHeartbeatFile
  ? startHeartbeat(config.workerHeartbeatFile, db.db, config.redis.url)
  : null
// The worker's own metrics, on its own port: the queues' depth, the outbox's lag, deliveries.
const metricsServer = config.metrics.port ? await serveMetrics(config.metrics.port, config.host) : null
logger.info({ metricsPort: config.metrics.port }, 'worker started')
// Running jobs finish within the grace; one still running then is left to its lock, which lapses to
// another worker (the stalled check), as when a worker dies.
onShutdown(logger, config.shutdownGraceMs, async () => {
  heartbeat?.stop()
  metricsServer?.close()
  await runtime.close()
  await db.close()
})
