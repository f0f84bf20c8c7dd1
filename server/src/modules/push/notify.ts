import { createHash, randomBytes } from 'node:crypto'
import { DEFAULT_PUSH_EVENTS, type PushEvent, rooms, zoneParts } from '@porchlight/shared'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/database.ts'
import { inTransaction, type Trx } from '../../db/transaction.ts'
import { backgroundFailures } from '../../failures.ts'
import type { Outbox } from '../../jobs/outbox.ts'
import type { PushEvents } from '../../jobs/push-events.ts'
import { coalesced } from '../../lib/coalesced.ts'
import type { Access } from '../../policy/access.ts'
import type { SocketRooms } from '../../realtime/events.ts'
import type { SecretBox } from '../../secrets.ts'
import type { NewPushMessage, PushRepo } from './repo.ts'
import { PUSH_PAYLOAD_COLUMN } from './send.ts'

export const hashClaimToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** 256 random bits, base64url: the claim capability an offer's push carries. */
export const newClaimToken = () => randomBytes(32).toString('base64url')

const WEEK_MS = 7 * 24 * 3600_000
/** Push services keep a message at most four weeks. */
const MAX_TTL_SECONDS = 28 * 24 * 3600

interface Settings {
  events: string[] | null
  quietStart: string | null
  quietEnd: string | null
  timeZone: string | null
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/** Whether the agent's clock, now, is within its quiet hours (a window may pass midnight). */
export function inQuietHours(s: Settings, now = new Date()): boolean {
  if (!s.quietStart || !s.quietEnd || s.quietStart === s.quietEnd) return false
  const { hour = NaN, minute = NaN } = zoneParts(s.timeZone ?? 'UTC', 'clock', now)
  const at = hour * 60 + minute
  const start = minutesOf(s.quietStart)
  const end = minutesOf(s.quietEnd)
  return start < end ? at >= start && at < end : at >= start || at < end
}

/** Whether this agent wants this event now. A won claim is told even in quiet hours: it is its own act. */
export function wants(s: Settings, event: PushEvent, now = new Date()): boolean {
  const events = s.events ?? DEFAULT_PUSH_EVENTS
  if (!events.includes(event)) return false
  return event === 'claim.won' || !inQuietHours(s, now)
}

function offerEvent(level: string): PushEvent {
  if (level === 'Open To All') return 'offer.everyone'
  if (level === 'Market Center') return 'offer.marketCenter'
  return 'offer.team'
}

/** Topics (RFC 8030 §5.4) are base64url, at most 32 characters: a newer push of one open house replaces an older one not yet delivered. */
const topicOf = (openHouseId: number) => `oh${openHouseId}`

/** Guests' sign-ins at one door within this long are told by one push (they would replace each other). */
export const GUEST_PUSH_COALESCE_MS = 250

export interface PushNotifierDeps {
  db: Db
  repo: PushRepo
  outbox: Outbox
  secrets: SecretBox
  access: Access
  config: Pick<Config, 'push' | 'publicUrl'>
  /** Who has which board open (the API process's sockets); without it, an agent is taken to have none. */
  presence?: Pick<SocketRooms, 'watching'>
}

/**
 * Web Push's events (decision 050). What a locked screen shows is the address and the time only; the
 * rest (who offered it, the guest's name) waits for the unlocked app.
 */
export function createPushNotifier(d: PushNotifierDeps): PushEvents {
  const { repo } = d
  const enabled = () => d.config.push.vapid !== undefined

  async function write(trx: Trx, rows: Array<Omit<NewPushMessage, 'payload'> & { payload: object }>) {
    const sealed = rows.map((r) => ({
      ...r,
      payload: d.secrets.seal(JSON.stringify(r.payload), PUSH_PAYLOAD_COLUMN),
    }))
    const ids = await repo.insertMessages(sealed, trx)
    await d.outbox.addEach(
      trx,
      'push',
      'send',
      ids.map((r) => ({ messageId: r.id })),
    )
  }

  /**
   * A guest's sign-in, told to the agent at the door. The push is the same for every guest of the open
   * house (its address and time, one tag), so the sign-ins of one window are told by one look at the
   * sockets, one read and one push: at a busy door, one a quarter second instead of one per guest.
   */
  const guestPushes = coalesced<{
    openHouseId: number
    doorAgentId: number
    notice: () => Promise<{ address: string; when: string }>
  }>(
    GUEST_PUSH_COALESCE_MS,
    async (_key, { openHouseId, doorAgentId, notice }) => {
      const watching = await d.presence
        ?.watching?.(doorAgentId, rooms.openHouse(openHouseId))
        .catch(() => false)
      if (watching) return
      const { address, when } = await notice()
      await inTransaction(d.db, (trx) =>
        notifier.told(trx, [doorAgentId], {
          event: 'guest.signedIn',
          title: 'A guest signed in',
          body: when ? `${address} · ${when}` : address,
          url: `/openhouses/schedule/${openHouseId}/manage`,
          tag: `guests-${openHouseId}`,
          openHouseId,
        }),
      )
    },
    (err, key) => backgroundFailures.report('push', err, { guestSignedIn: key }),
  )

  const notifier: PushEvents = {
    guestSignedIn(openHouseId, doorAgentId, notice) {
      if (enabled()) guestPushes.call(`${openHouseId}:${doorAgentId}`, { openHouseId, doorAgentId, notice })
    },

    stop() {
      guestPushes.stop()
    },

    async offered(trx, oh, except) {
      if (!enabled()) return
      const event = offerEvent(oh.publishLevel)
      const candidates =
        event === 'offer.team'
          ? await repo.teamPeople(Number(oh.publishLevelId), trx)
          : event === 'offer.marketCenter'
            ? await repo.firmPeople(oh.publishLevelId ?? '', trx)
            : null
      const skip = new Set([oh.listingReAgentId, oh.scheduledByReAgentId, ...except])
      const people = (await repo.subscribers(candidates, trx)).filter(
        (p) => !skip.has(p.agent.id) && wants(p.settings, event),
      )
      const startsAt = oh.startsAt ? new Date(oh.startsAt) : null
      const expiresAt =
        startsAt && startsAt.getTime() > Date.now() ? startsAt : new Date(Date.now() + WEEK_MS)
      const ttlSeconds = Math.min(MAX_TTL_SECONDS, Math.ceil((expiresAt.getTime() - Date.now()) / 1000))
      const tokens: Array<{ tokenHash: string; reAgentId: number; openHouseId: number; expiresAt: Date }> = []
      const rows: Array<Omit<NewPushMessage, 'payload'> & { payload: object }> = []
      for (const p of people) {
        // The same policy the claim asks: an agent it does not reach is told nothing.
        const allowed = await d.access
          .openHouse(p.agent, 'claim', oh.id, trx)
          .then(() => true)
          .catch(() => false)
        if (!allowed) continue
        const claimToken = newClaimToken()
        tokens.push({
          tokenHash: hashClaimToken(claimToken),
          reAgentId: p.agent.id,
          openHouseId: oh.id,
          expiresAt,
        })
        for (const subscriptionId of p.subscriptionIds) {
          rows.push({
            subscriptionId,
            event,
            openHouseId: oh.id,
            ttlSeconds,
            urgency: 'high',
            topic: topicOf(oh.id),
            expiresAt,
            payload: {
              type: 'offer',
              event,
              tag: `open-house-${oh.id}`,
              openHouseId: oh.id,
              title: 'Open house to host',
              body: `${oh.address} · ${oh.when}`,
              url: `/openhouses?activeSection=searchOH&openHouseId=${oh.id}`,
              claimToken,
              actions: [{ action: 'claim', title: 'Claim' }],
            },
          })
        }
      }
      await repo.insertClaimTokens(tokens, trx)
      await write(trx, rows)
    },

    async told(trx, agentIds, notice) {
      if (!enabled() || agentIds.length === 0) return
      const people = await repo.subscribers([...new Set(agentIds)], trx)
      const day = 24 * 3600
      const rows: Array<Omit<NewPushMessage, 'payload'> & { payload: object }> = []
      for (const p of people) {
        if (!wants(p.settings, notice.event)) continue
        for (const subscriptionId of p.subscriptionIds) {
          rows.push({
            subscriptionId,
            event: notice.event,
            openHouseId: notice.openHouseId ?? null,
            ttlSeconds: day,
            urgency: 'normal',
            topic: notice.tag.replace(/[^\w-]/g, '').slice(0, 32),
            expiresAt: new Date(Date.now() + day * 1000),
            payload: { type: 'notice', ...notice },
          })
        }
      }
      await write(trx, rows)
    },

    async claimed(oh, winner) {
      if (!enabled()) return
      await inTransaction(d.db, async (trx) => {
        await repo.expireOffers(oh.id, trx)
        const offered = await repo.offeredSubscriptions(oh.id, trx)
        const agentIds = [...new Set([...offered.map((o) => o.reAgentId), winner.id])]
        const people = await repo.subscribers(agentIds, trx)
        const hourMs = 3600_000
        const rows: Array<Omit<NewPushMessage, 'payload'> & { payload: object }> = []
        for (const p of people) {
          const won = p.agent.id === winner.id
          const event: PushEvent = won ? 'claim.won' : 'claim.lost'
          if (!wants(p.settings, event)) continue
          const subs = won
            ? p.subscriptionIds
            : offered.filter((o) => o.reAgentId === p.agent.id).map((o) => o.subscriptionId)
          for (const subscriptionId of new Set(subs)) {
            rows.push({
              subscriptionId,
              event,
              openHouseId: oh.id,
              ttlSeconds: 3600,
              urgency: 'normal',
              topic: topicOf(oh.id),
              expiresAt: new Date(Date.now() + hourMs),
              // The same tag: on the device it replaces the offer's notification.
              payload: {
                type: won ? 'won' : 'lost',
                event,
                tag: `open-house-${oh.id}`,
                openHouseId: oh.id,
                title: won ? "You're hosting" : 'Claimed',
                body: `${oh.address} · ${oh.when}`,
                url: `/openhouses/schedule/${oh.id}/manage`,
              },
            })
          }
        }
        await write(trx, rows)
      })
    },
  }
  return notifier
}
