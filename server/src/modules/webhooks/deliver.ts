import type { Config } from '../../config.ts'
import type { Db } from '../../db/database.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import { whileDatabaseAway } from '../../db/while-away.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import { metrics } from '../../lib/metrics.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import { type PostAnswer, postJson, signWebhook } from './post.ts'
import type { EndpointRow, WebhookRepo } from './repo.ts'

/** Another worker is attempting this delivery right now: the job waits (BullMQ retries it). */
export class DeliveryInFlightError extends Error {}

export interface DelivererDeps {
  db: Db
  repo: WebhookRepo
  outbox: Outbox
  config: Pick<Config, 'webhooks' | 'publicUrl'>
}

/**
 * One attempt at one delivery, signed per Standard Webhooks. The delivery is claimed with a lease in one
 * statement (no transaction is held while the receiver answers); its outcome and, after a failure, the
 * next attempt (an outbox row due after the schedule's wait) are written together. After the last retry
 * the delivery is failed; an endpoint failing for three days is disabled and its owner told by mail.
 * A manual attempt (a replay, a test event) is tried once and leaves the endpoint's failure clock alone.
 */
export function createWebhookDeliverer(d: DelivererDeps) {
  const { repo } = d

  /** Starts (or continues) the endpoint's failure clock; answers whether this failure disabled it. */
  async function afterFailure(trx: Trx, endpoint: EndpointRow): Promise<boolean> {
    await repo.endpointFailed(endpoint.id, trx)
    const disabled = await repo.disableIfFailingSince(endpoint.id, d.config.webhooks.disableAfterMs, trx)
    if (!disabled) return false
    const owner = await repo.ownerEmail(endpoint.reAgentId, trx)
    if (owner)
      await queueMail(
        trx,
        d.outbox,
        mailTemplates.webhookEndpointDisabled(
          owner.reAgentEmailId,
          endpoint.url,
          `${d.config.publicUrl}/mystuff`,
        ),
      )
    return true
  }

  return async function deliver({ deliveryId, manual = false }: { deliveryId: number; manual?: boolean }) {
    const delivery = await repo.claim(deliveryId)
    if (!delivery) {
      const row = await repo.delivery(deliveryId)
      if (row?.status === 'sending')
        throw new DeliveryInFlightError(`delivery ${deliveryId} is being attempted`)
      return 'skipped'
    }
    const endpoint = await repo.endpoint(delivery.endpointId)
    if (!endpoint) {
      metrics.count('delivery', { channel: 'webhook', outcome: 'skipped' })
      return 'skipped'
    }

    let answer: PostAnswer | null = null
    let error: string | null = null
    if (endpoint.disabledAt && !manual) {
      error = 'The endpoint is disabled'
    } else {
      const body = JSON.stringify(delivery.payload)
      const timestamp = Math.floor(Date.now() / 1000)
      try {
        answer = await postJson(
          endpoint.url,
          {
            'webhook-id': delivery.messageId,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signWebhook(endpoint.secret, delivery.messageId, timestamp, body),
          },
          body,
          { timeoutMs: d.config.webhooks.timeoutMs, allowPrivate: d.config.webhooks.allowPrivateTargets },
        )
        if (answer.status < 200 || answer.status > 299) error = `The receiver answered ${answer.status}`
      } catch (err) {
        error = err instanceof Error ? err.message : String(err)
      }
    }
    const outcome = {
      responseStatus: answer?.status ?? null,
      latencyMs: answer?.latencyMs ?? null,
      responseExcerpt: answer?.excerpt ?? null,
      lastError: error?.slice(0, 500) ?? null,
    }

    // The receiver has its answer: a database away for a moment is waited out, or the retry of this
    // job would post the event a second time.
    let counted: 'delivered' | 'retrying' | 'failed' = 'delivered'
    await whileDatabaseAway(() =>
      inTransaction(d.db, async (trx) => {
        if (!error) {
          counted = 'delivered'
          await repo.finishAttempt(deliveryId, { ...outcome, status: 'succeeded', nextAttemptAt: null }, trx)
          await repo.endpointSucceeded(endpoint.id, trx)
          return
        }
        // An endpoint this failure disabled gets no more attempts: the delivery ends failed.
        const disabled = manual || endpoint.disabledAt ? false : await afterFailure(trx, endpoint)
        const wait =
          manual || endpoint.disabledAt || disabled
            ? undefined
            : d.config.webhooks.retryDelaysMs[delivery.attempts - 1]
        if (wait === undefined) {
          counted = 'failed'
          await repo.finishAttempt(deliveryId, { ...outcome, status: 'failed', nextAttemptAt: null }, trx)
        } else {
          counted = 'retrying'
          const runAt = new Date(Date.now() + wait)
          await repo.finishAttempt(deliveryId, { ...outcome, status: 'pending', nextAttemptAt: runAt }, trx)
          await d.outbox.add(trx, 'webhooks', 'deliver', { deliveryId }, { runAt })
        }
      }),
    )
    metrics.count('delivery', { channel: 'webhook', outcome: counted })
    return error ? 'failed' : 'succeeded'
  }
}
