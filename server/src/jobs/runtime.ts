import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import { createMailer } from '../mail/mailer.ts'
import { createAgentRepo } from '../modules/agents/repo.ts'
import { createAgentService } from '../modules/agents/service.ts'
import { createInventoryRepo } from '../modules/inventory/repo.ts'
import { createInventoryService } from '../modules/inventory/service.ts'
import { createOpenHouseRepo } from '../modules/open-houses/repo.ts'
import { createOpenHouseService } from '../modules/open-houses/service.ts'
import { createPricingRepo } from '../modules/pricing/repo.ts'
import { createPricingService } from '../modules/pricing/service.ts'
import { createPropertyRepo } from '../modules/properties/repo.ts'
import { createPropertyService } from '../modules/properties/service.ts'
import { createAccess } from '../policy/access.ts'
import { createRedisEmitter } from '../realtime/emitter.ts'
import { createStatsNotifier } from '../realtime/stats.ts'
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
  const emitterConnection = createRedis(config.redis.url, 'durable')
  const queues = createQueues(producerConnection, config.redis.prefix)
  const outbox = createOutbox(db, queues, () => producerConnection.status === 'ready', config.relay.batchSize)
  const mailer = createMailer(config)
  const access = createAccess(db)
  const agents = createAgentService({ db, repo: createAgentRepo(db), access, outbox, config })
  const pricing = createPricingService(db, createPricingRepo(db))
  const inventory = createInventoryService(
    db,
    createInventoryRepo(db),
    createPropertyService(createPropertyRepo(db), access),
  )
  const events = createRedisEmitter(emitterConnection, `${config.redis.prefix}:socket.io`)
  const openHouses = createOpenHouseService({
    db,
    stats: createStatsNotifier(db, events),
    outbox,
    config,
    repo: createOpenHouseRepo(db),
    agents,
    pricing,
    inventory,
    events,
    access,
  })
  const processors: Processors = {
    mail: { send: createMailProcessor(db, mailer) },
    'auto-clone': { clone: ({ openHouseId }) => openHouses.autoClone(openHouseId) },
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
    openHouses,
    async close() {
      await outbox.stop()
      await workers.close()
      await closeQueues(queues)
      mailer.close()
      for (const c of [workerConnection, producerConnection, emitterConnection]) c.disconnect()
    },
  }
}
