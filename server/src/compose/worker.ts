import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import { resealSecrets } from '../db/reseal-secrets.ts'
import { backgroundFailures } from '../failures.ts'
import { createBatches } from '../jobs/batches.ts'
import { outboxWaiting, queueCounts, welcomesWaiting } from '../jobs/metric-sources.ts'
import { createOutbox } from '../jobs/outbox.ts'
import { closeQueues, createQueues } from '../jobs/queues.ts'
import { type Processors, startWorkers } from '../jobs/workers.ts'
import { metrics } from '../lib/metrics.ts'
import { createMailProcessor } from '../mail/deliver.ts'
import { createMailer } from '../mail/mailer.ts'
import { createMailRetries } from '../mail/retries.ts'
import { WELCOMES_PER_BATCH } from '../modules/consent/service.ts'
import { createPushSender } from '../modules/push/send.ts'
import { startStatisticsFold } from '../modules/stats/fold.ts'
import { createWebhookDeliverer } from '../modules/webhooks/deliver.ts'
import { createFubDeliverer } from '../modules/webhooks/fub-deliver.ts'
import { createRedisEmitter } from '../realtime/emitter.ts'
import { createRedis } from '../redis.ts'
import { createServices, type Services } from './services.ts'

/**
 * The worker side: BullMQ workers for every queue plus the outbox relay. A worker process builds the
 * services itself, telling live clients through the Redis emitter; `pnpm start` passes the API's own.
 */
export function startWorkerRuntime(config: Config, db: Db, logger: Logger, shared?: Services) {
  // Workers block on Redis and must wait it out (maxRetriesPerRequest: null); producers fail fast.
  const workerConnection = createRedis(config.redis.url, 'durable')
  const producerConnection = createRedis(config.redis.url, 'command')
  const emitterConnection = createRedis(config.redis.url, 'durable', { unawaited: true })
  const queues = createQueues(producerConnection, config.redis.prefix)
  const outbox = createOutbox(db, queues, producerConnection, config.relay)
  const mailer = createMailer(config)
  if (!shared) backgroundFailures.useLogger(logger)
  const services =
    shared ??
    createServices({
      config,
      db,
      outbox,
      live: createRedisEmitter(emitterConnection, `${config.redis.prefix}:socket.io`),
      redis: producerConnection,
    })
  const processors: Processors = {
    mail: {
      send: createMailProcessor(
        db,
        mailer,
        services.consent.optedOutEach,
        (sealed, column) => services.secrets.open(sealed, column),
        config.mailRetry,
        (fields, msg) => logger.debug(fields, msg),
      ),
      followUp: (payload) => services.consent.sendFollowUp(payload),
    },
    'auto-clone': { clone: ({ openHouseId }) => services.openHouses.autoClone(openHouseId) },
    receipts: {
      capture: ({ openHouseId }) => services.reports.sendCaptureReceipt(openHouseId),
      seller: ({ openHouseId }) => services.sellerReports.sendSellerMails(openHouseId),
    },
    webhooks: {
      deliver: createWebhookDeliverer({ db, repo: services.webhookRepo, outbox, config }),
    },
    fub: {
      visit: createFubDeliverer({
        db,
        repo: services.webhookRepo,
        fubRepo: services.fubRepo,
        outbox,
        config,
      }),
    },
    push: {
      send: createPushSender({ db, repo: services.pushRepo, outbox, secrets: services.secrets, config }),
    },
  }
  const workers = startWorkers(processors, {
    connection: workerConnection,
    redisPrefix: config.redis.prefix,
    outbox,
    // Sends wait for no connection: as many at once as the mailer keeps (mailer.ts).
    concurrency: { mail: mailer.connections },
    logger,
  })
  // The worker's /metrics (bin/worker.ts) tells the outbox's lag and the queues' depth.
  const forgetSources = metrics.readFrom({
    outbox: outboxWaiting(db),
    queues: queueCounts(queues),
    welcomes: welcomesWaiting(db),
  })
  outbox.start(config.relay.intervalMs)
  // Values stored before sealing, or sealed with a key since rotated out of first place (decision 033).
  resealSecrets(db, services.secrets).then(
    ({ sealed, unreadable }) => {
      if (sealed > 0) logger.info({ sealed }, 'sealed stored secrets with the current SECRETS_KEY')
      if (unreadable > 0)
        logger.error({ unreadable }, 'stored secrets that no key of SECRETS_KEY opens were left as they are')
    },
    (err) => backgroundFailures.report('worker', err, { task: 'reseal-secrets' }),
  )
  // Mail the SMTP server could not take waits in PostgreSQL; this hands it back when its time comes.
  const mailRetries = createMailRetries({ db, outbox, mailer, config: config.mailRetry })
  mailRetries.start()
  // The visits sign-ins named since, into the dashboard's kept figures in one batch (decision 049).
  const statsFold = startStatisticsFold(db)
  // Consenting guests' welcomes (opt-in, thank-you, follow-up), many sign-ins to a transaction (053).
  const welcomes = createBatches({
    db,
    source: 'guest-welcome',
    size: WELCOMES_PER_BATCH,
    intervalMs: config.mailRetry.welcomesIntervalMs,
    ...services.consent.welcomeGuests,
  })
  welcomes.start()
  return {
    outbox,
    queues,
    mailRetries,
    welcomes,
    openHouses: services.openHouses,
    async close() {
      // Services of their own (not the API's, which the API stops): no hint after the emitter closes.
      if (!shared) services.stopBatchedLive()
      forgetSources()
      await mailRetries.stop()
      await welcomes.stop()
      await statsFold.stop()
      await outbox.stop()
      await workers.close()
      await closeQueues(queues)
      mailer.close()
      for (const c of [workerConnection, producerConnection, emitterConnection]) c.disconnect()
    },
  }
}
