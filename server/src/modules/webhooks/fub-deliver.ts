import type { JobPayloads } from '@porchlight/shared'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/database.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import { whileDatabaseAway } from '../../db/while-away.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import { metrics } from '../../lib/metrics.ts'
import { queueMail } from '../../mail/queue-mail.ts'
import { mailTemplates } from '../../mail/templates.ts'
import { DeliveryInFlightError } from './deliver.ts'
import { callFub, classify, type FubAnswer, type FubOutcome } from './fub-api.ts'
import type { FubRepo } from './fub-repo.ts'
import type { WebhookRepo } from './repo.ts'

/** A 429 without a readable Retry-After waits a minute; one asking for more than a day waits a day. */
const THROTTLE_DEFAULT_MS = 60_000
const THROTTLE_MAX_MS = 24 * 3600_000

export const FUB_IGNORED = 'Ignored by Follow Up Boss: its lead flow for this source is archived'

export interface FubDelivererDeps {
  db: Db
  repo: WebhookRepo
  fubRepo: FubRepo
  outbox: Outbox
  config: Pick<Config, 'fub' | 'publicUrl'>
}

type Payload = JobPayloads['fub']['visit']

/** How each Follow Up Boss answer is counted in the delivery metric (decision 047). */
const COUNTED = {
  delivered: 'delivered',
  ignored: 'ignored',
  rejected: 'rejected',
  throttled: 'retrying',
  unavailable: 'retrying',
  refused: 'failed',
} as const satisfies Record<FubOutcome['kind'], string>

/**
 * One attempt at one sign-in for Follow Up Boss (decision 041). The delivery is claimed with a lease in
 * one statement, posted with no transaction held, and its outcome written with what follows from it:
 * the next attempt (an outbox row due later), the connector's status, the agent's mail about a refused
 * key. A lead is never dropped: it ends delivered, ignored (204), or waiting for the agent's retry.
 */
export function createFubDeliverer(d: FubDelivererDeps) {
  const { fubRepo } = d

  async function again(trx: Trx, deliveryId: number, runAt: Date) {
    await d.outbox.add(trx, 'fub', 'visit', { deliveryId }, { runAt })
  }

  return async function visit(payload: Payload, job?: { id?: string }) {
    // A job written before deliveries were rows carries the event itself: it becomes one row, once.
    const deliveryId =
      'deliveryId' in payload
        ? payload.deliveryId
        : await fubRepo.fromLegacyJob(payload.agentId, payload.event, String(job?.id))
    const delivery = await fubRepo.claim(deliveryId)
    if (!delivery) {
      const row = await fubRepo.get(deliveryId)
      if (row?.status === 'sending') throw new DeliveryInFlightError(`fub delivery ${deliveryId} in flight`)
      // Delivered already, or waiting for a key: the connector's retry hands it over again.
      metrics.count('delivery', { channel: 'crm', outcome: 'skipped' })
      return 'skipped'
    }
    const agentId = delivery.reAgentId
    const connector = await d.repo.fub(agentId)
    let answer: FubAnswer | null = null
    let kind: FubOutcome['kind']
    let error: string | null = null
    if (!connector) {
      kind = 'refused'
      error = 'No Follow Up Boss key is saved'
    } else {
      try {
        answer = await callFub(d.config.fub, connector.apiKey, 'POST', '/v1/events', delivery.event)
        kind = classify(answer.status)
        if (kind !== 'delivered') error = `Follow Up Boss answered ${answer.status}: ${answer.reason}`
      } catch (err) {
        kind = 'unavailable'
        error = `Follow Up Boss did not answer: ${err instanceof Error ? err.message : String(err)}`
      }
    }
    const base = { responseStatus: answer?.status ?? null, lastError: error?.slice(0, 500) ?? null }
    const keySavedAt = connector ? new Date(connector.createdDate) : null

    // Follow Up Boss has its answer: a database away for a moment is waited out, or the retry of this
    // job would post the lead a second time.
    await whileDatabaseAway(() =>
      inTransaction(d.db, async (trx) => {
        const status = (s: 'ok' | 'failing' | 'rejected', e: string | null) =>
          keySavedAt ? fubRepo.setStatus(agentId, keySavedAt, s, e, trx) : Promise.resolve(false)
        switch (kind) {
          case 'delivered':
            await fubRepo.finish(deliveryId, { ...base, status: 'delivered', nextAttemptAt: null }, trx)
            await status('ok', null)
            return
          case 'ignored':
            await fubRepo.finish(
              deliveryId,
              { ...base, status: 'ignored', lastError: FUB_IGNORED, nextAttemptAt: null },
              trx,
            )
            // The key works; the agent sees the lead was dropped on Follow Up Boss's side.
            await status('ok', FUB_IGNORED)
            return
          case 'rejected': {
            // Final for the key, not for the lead: it waits, unattempted, with every later one.
            await fubRepo.finish(deliveryId, { ...base, status: 'pending', nextAttemptAt: null }, trx)
            const reason = answer?.reason ?? ''
            const changed = await status('rejected', `Follow Up Boss refused the API key: ${reason}`)
            if (changed && (await fubRepo.firstRejection(agentId, trx))) {
              const owner = await d.repo.ownerEmail(agentId, trx)
              if (owner) {
                const url = `${d.config.publicUrl}/mystuff`
                await queueMail(
                  trx,
                  d.outbox,
                  mailTemplates.fubKeyRejected(owner.reAgentEmailId, reason, url),
                )
              }
            }
            return
          }
          case 'throttled': {
            const wait = Math.min(answer?.retryAfterMs ?? THROTTLE_DEFAULT_MS, THROTTLE_MAX_MS)
            const runAt = new Date(Date.now() + wait)
            await fubRepo.finish(deliveryId, { ...base, status: 'pending', nextAttemptAt: runAt }, trx)
            await again(trx, deliveryId, runAt)
            return
          }
          case 'unavailable': {
            await status('failing', error)
            const wait = d.config.fub.retryDelaysMs[delivery.attempts - 1]
            if (wait === undefined) {
              // The schedule (about a day) ran out: the lead waits for the agent's retry.
              await fubRepo.finish(deliveryId, { ...base, status: 'failed', nextAttemptAt: null }, trx)
              return
            }
            const runAt = new Date(Date.now() + wait)
            await fubRepo.finish(deliveryId, { ...base, status: 'pending', nextAttemptAt: runAt }, trx)
            await again(trx, deliveryId, runAt)
            return
          }
          case 'refused':
            await status('failing', error)
            await fubRepo.finish(deliveryId, { ...base, status: 'failed', nextAttemptAt: null }, trx)
            return
        }
      }),
    )
    metrics.count('delivery', { channel: 'crm', outcome: COUNTED[kind] })
    return kind
  }
}
