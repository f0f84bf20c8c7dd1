import { sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import type { Trx } from '../../db/transaction.ts'

/**
 * How long one attempt holds its message: a worker that died leaves it to another after this. Longer
 * than an attempt can take (config.push.timeoutMs, 10 s).
 */
export const SEND_LEASE_MS = 15_000

export interface NewPushMessage {
  subscriptionId: number
  event: string
  openHouseId: number | null
  /** Sealed JSON. */
  payload: string
  ttlSeconds: number
  urgency: 'very-low' | 'low' | 'normal' | 'high'
  topic: string
  expiresAt: Date
}

/** Web Push's tables: subscriptions, settings, messages and claim capabilities. */
export function createPushRepo(db: Db) {
  return {
    /** A browser subscribing again (same endpoint) moves the subscription to this agent with its new keys. */
    saveSubscription(v: { reAgentId: number; endpoint: string; p256dh: string; auth: string }) {
      return db
        .insertInto('pushSubscription')
        .values(v)
        .onConflict((oc) =>
          oc.column('endpoint').doUpdateSet({ reAgentId: v.reAgentId, p256dh: v.p256dh, auth: v.auth }),
        )
        .returning('id')
        .executeTakeFirstOrThrow()
    },
    subscriptionsOf(reAgentId: number) {
      return db
        .selectFrom('pushSubscription')
        .select(['id', 'endpoint', 'createdDate', 'lastSuccessAt'])
        .where('reAgentId', '=', reAgentId)
        .orderBy('id')
        .execute()
    },
    deleteSubscription(id: number) {
      return db.deleteFrom('pushSubscription').where('id', '=', id).executeTakeFirst()
    },
    subscription(id: number) {
      return db.selectFrom('pushSubscription').selectAll().where('id', '=', id).executeTakeFirst()
    },
    settings(reAgentId: number) {
      return db
        .selectFrom('notificationSetting')
        .selectAll()
        .where('reAgentId', '=', reAgentId)
        .executeTakeFirst()
    },
    saveSettings(v: {
      reAgentId: number
      events: string[]
      quietStart: string | null
      quietEnd: string | null
      timeZone: string
    }) {
      return db
        .insertInto('notificationSetting')
        .values(v)
        .onConflict((oc) =>
          oc.column('reAgentId').doUpdateSet({
            events: v.events,
            quietStart: v.quietStart,
            quietEnd: v.quietEnd,
            timeZone: v.timeZone,
            updatedAt: sql<Date>`now()`,
          }),
        )
        .execute()
    },

    /**
     * Agents with at least one subscription among these candidates (null: every agent with one), their
     * rows, settings and subscriptions.
     */
    async subscribers(candidates: number[] | null, trx: Db | Trx = db) {
      if (candidates !== null && candidates.length === 0) return []
      let q = trx
        .selectFrom('pushSubscription as s')
        .innerJoin('reAgent as a', 'a.id', 's.reAgentId')
        .leftJoin('notificationSetting as n', 'n.reAgentId', 's.reAgentId')
        .selectAll('a')
        .select([
          's.id as subscriptionId',
          'n.events as settingEvents',
          'n.quietStart',
          'n.quietEnd',
          'n.timeZone',
        ])
        .orderBy('s.id')
      if (candidates) q = q.where('s.reAgentId', 'in', candidates)
      const rows = await q.execute()
      const byAgent = new Map<
        number,
        {
          agent: AgentRow
          subscriptionIds: number[]
          settings: {
            events: string[] | null
            quietStart: string | null
            quietEnd: string | null
            timeZone: string | null
          }
        }
      >()
      for (const r of rows) {
        const { subscriptionId, settingEvents, quietStart, quietEnd, timeZone, ...agent } = r
        const entry = byAgent.get(agent.id) ?? {
          agent: agent as AgentRow,
          subscriptionIds: [],
          settings: { events: settingEvents, quietStart, quietEnd, timeZone },
        }
        entry.subscriptionIds.push(subscriptionId)
        byAgent.set(agent.id, entry)
      }
      return [...byAgent.values()]
    },

    /** Agents an offer at this level is meant for, before the policy's word: a team's people, a firm's. */
    async teamPeople(teamId: number, trx: Db | Trx = db): Promise<number[]> {
      const rows = await trx
        .selectFrom('reAgent')
        .select('id')
        .where((eb) =>
          eb.or([
            eb(
              'id',
              'in',
              eb
                .selectFrom('reTeamMember')
                .select('reAgentId')
                .where('reTeamId', '=', teamId)
                .where('invitationStatus', '=', 'accepted'),
            ),
            eb('id', 'in', eb.selectFrom('reTeam').select('reTeamLeadId').where('id', '=', teamId)),
            eb(
              'id',
              'in',
              eb
                .selectFrom('reTeam')
                .select('reCoTeamLeadId')
                .where('id', '=', teamId)
                .where('reCoTeamLeadId', 'is not', null),
            ),
          ]),
        )
        .execute()
      return rows.map((r) => r.id)
    },
    async firmPeople(firmLicense: string, trx: Db | Trx = db): Promise<number[]> {
      const rows = await trx
        .selectFrom('reAgent')
        .select('id')
        .where('reAgentBrokerFirmLicense', '=', firmLicense)
        .where('firmMembershipStatus', '=', 'verified')
        .execute()
      return rows.map((r) => r.id)
    },

    insertMessages(rows: NewPushMessage[], trx: Trx) {
      if (rows.length === 0) return Promise.resolve([])
      return trx.insertInto('pushMessage').values(rows).returning('id').execute()
    },

    /** Offers of this open house not yet sent: they will not be (it is claimed or gone). */
    expireOffers(openHouseId: number, trx: Db | Trx = db) {
      return trx
        .updateTable('pushMessage')
        .set({ status: 'expired' })
        .where('openHouseId', '=', openHouseId)
        .where('event', 'like', 'offer.%')
        .where('status', 'in', ['pending'])
        .execute()
    },
    /** The subscriptions an offer of this open house went (or was going) to, with their agents. */
    offeredSubscriptions(openHouseId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('pushMessage as m')
        .innerJoin('pushSubscription as s', 's.id', 'm.subscriptionId')
        .select(['m.subscriptionId', 's.reAgentId', 'm.topic'])
        .where('m.openHouseId', '=', openHouseId)
        .where('m.event', 'like', 'offer.%')
        .distinct()
        .execute()
    },

    /**
     * Takes a message for one attempt, with a lease, in one statement: pending, or sending with a
     * lease run out (its worker died).
     */
    claimMessage(id: number) {
      return db
        .updateTable('pushMessage')
        .set({
          status: 'sending',
          attempts: sql<number>`attempts + 1`,
          leaseUntil: sql<Date>`now() + ${`${SEND_LEASE_MS} milliseconds`}::interval`,
        })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'pending'),
            eb.and([eb('status', '=', 'sending'), eb('leaseUntil', '<', sql<Date>`now()`)]),
          ]),
        )
        .returningAll()
        .executeTakeFirst()
    },
    message(id: number) {
      return db
        .selectFrom('pushMessage')
        .select(['id', 'status', 'leaseUntil'])
        .where('id', '=', id)
        .executeTakeFirst()
    },
    finishMessage(
      id: number,
      v: { status: 'pending' | 'sent' | 'gone' | 'expired' | 'failed'; lastError: string | null },
      trx: Db | Trx = db,
    ) {
      return trx
        .updateTable('pushMessage')
        .set({ ...v, leaseUntil: null, sentAt: v.status === 'sent' ? sql<Date>`now()` : null })
        .where('id', '=', id)
        .execute()
    },
    subscriptionSucceeded(id: number) {
      return db
        .updateTable('pushSubscription')
        .set({ lastSuccessAt: sql<Date>`now()` })
        .where('id', '=', id)
        .execute()
    },

    insertClaimTokens(
      rows: Array<{ tokenHash: string; reAgentId: number; openHouseId: number; expiresAt: Date }>,
      trx: Trx,
    ) {
      if (rows.length === 0) return Promise.resolve()
      return trx
        .insertInto('pushClaimToken')
        .values(rows)
        .execute()
        .then(() => undefined)
    },
    useClaimTokenOwner(tokenHash: string) {
      return db
        .selectFrom('pushClaimToken')
        .select('reAgentId')
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst()
    },
    /**
     * Uses a claim capability, once, in one statement: answers its agent and open house, or how it
     * stands when it cannot be used (unknown, used, expired).
     */
    async useClaimToken(tokenHash: string) {
      const used = await db
        .updateTable('pushClaimToken')
        .set({ usedAt: sql<Date>`now()` })
        .where('tokenHash', '=', tokenHash)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .returning(['reAgentId', 'openHouseId'])
        .executeTakeFirst()
      if (used) return { ok: true as const, ...used }
      const row = await db
        .selectFrom('pushClaimToken')
        .select(['usedAt', 'expiresAt', 'reAgentId'])
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst()
      return { ok: false as const, row }
    },
  }
}

export type PushRepo = ReturnType<typeof createPushRepo>
