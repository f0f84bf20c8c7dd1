import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import { createMailer } from '../mail/mailer.ts'
import { createRedis } from '../redis.ts'
import { createOutbox } from './outbox.ts'
import { createMailProcessor } from './processors/mail.ts'
import { closeQueues, createQueues } from './queues.ts'
import { type Processors, startWorkers } from './workers.ts'

/** The worker side: BullMQ workers for every queue plus the outbox relay loop. */
export function startWorkerRuntime(config: Config, db: Db, logger: Logger) {
  // Workers block on Redis and must wait it out (maxRetriesPerRequest: null); producers fail fast.
  const workerConnection = createRedis(config.redis.url, 'durable')
  const producerConnection = createRedis(config.redis.url, 'command')
  const queues = createQueues(producerConnection, config.redis.prefix)
  const outbox = createOutbox(db, queues, () => producerConnection.status === 'ready', config.relay.batchSize)
  const mailer = createMailer(config)
  const processors: Processors = {
    mail: { send: createMailProcessor(db, mailer) },
  }
  const workers = startWorkers(processors, {
    connection: workerConnection,
    redisPrefix: config.redis.prefix,
    logger,
  })
  outbox.start(config.relay.intervalMs)
  return {
    outbox,
    queues,
    async close() {
      await outbox.stop()
      await workers.close()
      await closeQueues(queues)
      mailer.close()
      workerConnection.disconnect()
      producerConnection.disconnect()
    },
  }
}
