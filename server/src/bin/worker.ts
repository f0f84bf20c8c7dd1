// The background worker process: BullMQ workers and the outbox relay.
import pino from 'pino'
import { startWorkerRuntime } from '../compose/worker.ts'
import { loadConfig } from '../config.ts'
import { createDb } from '../db/database.ts'
import { onShutdown } from '../shutdown.ts'

const config = loadConfig()
const logger = pino({ level: config.logLevel, name: 'worker' })
const db = await createDb(config.db)
const runtime = startWorkerRuntime(config, db.db, logger)
logger.info('worker started')
onShutdown(logger, async () => {
  await runtime.close()
  await db.close()
})
