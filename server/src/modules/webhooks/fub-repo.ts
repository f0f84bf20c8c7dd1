import { sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { FubConnectorStatus } from '../../db/types.ts'

/** How long a worker owns a Follow Up Boss delivery it is attempting (longer than an attempt's timeout). */
export const FUB_LEASE_MS = 30_000

/** Rows that are leads still waiting for Follow Up Boss. */
export const WAITING = ['pending', 'sending', 'failed'] as const

/**
 * Follow Up Boss deliveries and what the connector last heard (decision 041). The key itself is read
 * through the webhook repo, which opens it.
 */
export function createFubRepo(db: Db) {
  return {
    create(agentId: number, event: Record<string, unknown>, trx: Db | Trx = db) {
      return trx
        .insertInto('fubDelivery')
        .values({ reAgentId: agentId, event: JSON.stringify(event) })
        .returning('id')
        .executeTakeFirstOrThrow()
    },

    /** The row of an outbox job of the earlier shape: made by its first run, found by the next. */
    async fromLegacyJob(agentId: number, event: Record<string, unknown>, jobId: string) {
      const made = await db
        .insertInto('fubDelivery')
        .values({ reAgentId: agentId, event: JSON.stringify(event), legacyJob: jobId })
        .onConflict((oc) => oc.column('legacyJob').doNothing())
        .returning('id')
        .executeTakeFirst()
      if (made) return made.id
      const found = await db
        .selectFrom('fubDelivery')
        .select('id')
        .where('legacyJob', '=', jobId)
        .executeTakeFirstOrThrow()
      return found.id
    },

    get(id: number) {
      return db.selectFrom('fubDelivery').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /**
     * Takes a waiting delivery for one attempt, with a lease, in one statement outside any transaction: a
     * job that runs twice (Redis lost it mid-attempt and the outbox handed it over again, two workers)
     * attempts it once. A delivery whose agent has no key, or a refused one, is not taken: it waits.
     */
    claim(id: number) {
      return db
        .updateTable('fubDelivery as d')
        .set({
          status: 'sending',
          leaseUntil: sql<Date>`now() + ${`${FUB_LEASE_MS} milliseconds`}::interval`,
          attempts: sql<number>`d.attempts + 1`,
          nextAttemptAt: null,
        })
        .where('d.id', '=', id)
        .where((eb) =>
          eb.or([
            // Not before its time: an older job of a lead retried since finds it waiting for later.
            eb.and([
              eb('d.status', '=', 'pending'),
              eb.or([eb('d.nextAttemptAt', 'is', null), eb('d.nextAttemptAt', '<=', sql<Date>`now()`)]),
            ]),
            eb.and([eb('d.status', '=', 'sending'), eb('d.leaseUntil', '<', sql<Date>`now()`)]),
          ]),
        )
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('fubConnector as c')
              .select(sql`1`.as('one'))
              .whereRef('c.reAgentId', '=', 'd.reAgentId')
              .where('c.status', '<>', 'rejected'),
          ),
        )
        .returningAll()
        .executeTakeFirst()
    },

    /** The outcome of the attempt in hand (only while this attempt still owns the delivery). */
    finish(
      id: number,
      values: {
        status: 'pending' | 'delivered' | 'ignored' | 'failed'
        responseStatus: number | null
        lastError: string | null
        nextAttemptAt: Date | null
      },
      trx: Db | Trx = db,
    ) {
      return trx
        .updateTable('fubDelivery')
        .set({ ...values, leaseUntil: null, lastAttemptAt: sql<Date>`now()` })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .executeTakeFirst()
    },

    /**
     * What the connector heard last, for the key the attempt used (`keySavedAt`): an answer to a key
     * replaced since says nothing of the new one. Answers whether the row was changed.
     */
    async setStatus(
      agentId: number,
      keySavedAt: Date,
      status: FubConnectorStatus,
      lastError: string | null,
      trx: Db | Trx = db,
    ): Promise<boolean> {
      const result = await trx
        .updateTable('fubConnector')
        .set({
          status,
          ...(lastError === null ? {} : { lastError, lastErrorAt: sql<Date>`now()` }),
        })
        .where('reAgentId', '=', agentId)
        // A Date keeps milliseconds; the column keeps microseconds.
        .where(sql`abs(extract(epoch from (created_date - ${keySavedAt}::timestamptz)))`, '<', 0.001)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    /** True the first time it is asked for this key: the agent hears of a refused key once. */
    async firstRejection(agentId: number, trx: Db | Trx = db): Promise<boolean> {
      const row = await trx
        .updateTable('fubConnector')
        .set({ rejectionTold: true })
        .where('reAgentId', '=', agentId)
        .where('rejectionTold', '=', false)
        .returning('reAgentId')
        .executeTakeFirst()
      return row !== undefined
    },

    async waiting(agentId: number, trx: Db | Trx = db): Promise<number> {
      const row = await trx
        .selectFrom('fubDelivery')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('reAgentId', '=', agentId)
        .where('status', 'in', [...WAITING])
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },

    /** Every lead waiting that no attempt holds now, made due at once; answers their ids. */
    async reopenWaiting(agentId: number, trx: Db | Trx) {
      const rows = await trx
        .updateTable('fubDelivery')
        .set({ status: 'pending', nextAttemptAt: null })
        .where('reAgentId', '=', agentId)
        .where('status', 'in', ['pending', 'failed'])
        .returning('id')
        .execute()
      return rows.map((r) => r.id)
    },

    /** The connector is tried again (after a new key, or once more with the same one). */
    unblock(agentId: number, trx: Db | Trx) {
      return trx
        .updateTable('fubConnector')
        .set({ status: 'ok' })
        .where('reAgentId', '=', agentId)
        .executeTakeFirst()
    },
  }
}

export type FubRepo = ReturnType<typeof createFubRepo>
