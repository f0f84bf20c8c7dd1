import http from 'node:http'
import https from 'node:https'
import webpush from 'web-push'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/database.ts'
import { inTransaction } from '../../db/transaction.ts'
import { whileDatabaseAway } from '../../db/while-away.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { SecretBox } from '../../secrets.ts'
import { checkTarget, guardedLookup } from '../webhooks/targets.ts'
import type { PushRepo } from './repo.ts'

/** Another worker is sending this message right now: the job waits (BullMQ retries it). */
export class PushInFlightError extends Error {}

export const PUSH_PAYLOAD_COLUMN = 'push_message.payload'

interface Answer {
  status: number
  retryAfter: string | undefined
}

/** POSTs the encrypted push to the push service; its address is checked as a webhook's is. */
async function post(
  details: ReturnType<typeof webpush.generateRequestDetails>,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<Answer> {
  const target = new URL(details.endpoint)
  if (target.protocol !== 'https:' && !opts.allowPrivate) throw new Error('A push service must use https')
  await checkTarget(details.endpoint, opts.allowPrivate)
  const client = target.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: details.method,
        headers: details.headers as http.OutgoingHttpHeaders,
        lookup: guardedLookup(opts.allowPrivate) as never,
        timeout: opts.timeoutMs,
      },
      (res) => {
        res.resume()
        res.on('end', () => {
          const header = res.headers['retry-after']
          resolve({ status: res.statusCode ?? 0, retryAfter: Array.isArray(header) ? header[0] : header })
        })
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)))
    req.on('error', reject)
    req.end(details.body ?? undefined)
  })
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

export interface PushSenderDeps {
  db: Db
  repo: PushRepo
  outbox: Outbox
  secrets: SecretBox
  config: Pick<Config, 'push'>
}

/**
 * One attempt at one push (RFC 8030, encrypted per RFC 8291, signed per RFC 8292 by `web-push`). The
 * message is claimed with a lease in one statement; a 2xx marks it sent, a 404 or 410 removes the
 * subscription (the browser dropped it), a 429 waits what Retry-After says, a 5xx or no answer waits the
 * schedule; each wait is a new outbox row, due later. A message past its expiry is never sent.
 */
export function createPushSender(d: PushSenderDeps) {
  const { repo } = d
  return async function send({ messageId }: { messageId: number }) {
    const vapid = d.config.push.vapid
    const msg = await repo.claimMessage(messageId)
    if (!msg) {
      const row = await repo.message(messageId)
      if (row?.status === 'sending') throw new PushInFlightError(`push ${messageId} is being sent`)
      return 'skipped'
    }
    const secondsLeft = Math.floor((new Date(msg.expiresAt).getTime() - Date.now()) / 1000)
    if (secondsLeft <= 0 || !vapid) {
      await repo.finishMessage(messageId, { status: 'expired', lastError: vapid ? null : 'No VAPID keys' })
      return 'expired'
    }
    const sub = await repo.subscription(msg.subscriptionId)
    if (!sub) return 'skipped'
    const details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      d.secrets.open(msg.payload, PUSH_PAYLOAD_COLUMN),
      {
        vapidDetails: vapid,
        TTL: Math.min(msg.ttlSeconds, secondsLeft),
        urgency: msg.urgency as webpush.Urgency,
        topic: msg.topic,
      },
    )
    let answer: Answer | null = null
    let error: string | null = null
    try {
      answer = await post(details, {
        timeoutMs: d.config.push.timeoutMs,
        allowPrivate: d.config.push.allowPrivateTargets,
      })
      if (answer.status < 200 || answer.status > 299) error = `The push service answered ${answer.status}`
    } catch (err) {
      error = err instanceof Error ? err.message : String(err)
    }
    // The push service has its answer: a database away for a moment is waited out, or the retry of
    // this job would push a second time.
    return whileDatabaseAway(async () => {
      if (!error) {
        await repo.finishMessage(messageId, { status: 'sent', lastError: null })
        await repo.subscriptionSucceeded(sub.id)
        return 'sent'
      }
      if (answer && (answer.status === 404 || answer.status === 410)) {
        // Gone for good (RFC 8030 §7.3): the subscription and what waits for it go with it.
        await repo.deleteSubscription(sub.id)
        return 'gone'
      }
      const transient = !answer || answer.status === 429 || answer.status >= 500
      const delay = d.config.push.retryDelaysMs[msg.attempts - 1]
      if (!transient || delay === undefined) {
        await repo.finishMessage(messageId, { status: 'failed', lastError: error.slice(0, 500) })
        return 'failed'
      }
      const wait = Math.max(delay, (answer?.status === 429 && retryAfterMs(answer.retryAfter)) || 0)
      await inTransaction(d.db, async (trx) => {
        await repo.finishMessage(messageId, { status: 'pending', lastError: error.slice(0, 500) }, trx)
        await d.outbox.add(trx, 'push', 'send', { messageId }, { runAt: new Date(Date.now() + wait) })
      })
      return 'retrying'
    })
  }
}
