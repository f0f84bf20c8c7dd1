import type { Insertable } from 'kysely'
import { sql } from 'kysely'
import { agentIntegrations as integrations } from '../../db/agent-integrations.ts'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { WebhookDeliveryTable } from '../../db/types.ts'
import type { SecretBox } from '../../secrets.ts'

/** How long a worker owns a delivery it is attempting (longer than an attempt's timeout). */
export const ATTEMPT_LEASE_MS = 30_000

/** Replays of one delivery asked for within this long of each other are one replay. */
export const REPLAY_WINDOW_MS = 60_000

const SECRET = 'webhook_endpoint.secret'
const API_KEY = 'fub_connector.api_key'

/** Signing secrets and Follow Up Boss keys are stored sealed (decision 033) and answered open. */
export function createWebhookRepo(db: Db, box: SecretBox) {
  return {
    /** The agent's own endpoints and those of the teams it leads, newest first, with the team's name. */
    listFor(agentId: number, ledTeamIds: readonly number[]) {
      return db
        .selectFrom('webhookEndpoint as e')
        .leftJoin('reTeam as t', 't.id', 'e.teamId')
        .selectAll('e')
        .select('t.reTeamName as teamName')
        .where((eb) =>
          eb.or([
            eb.and([eb('e.reAgentId', '=', agentId), eb('e.teamId', 'is', null)]),
            ...(ledTeamIds.length > 0 ? [eb('e.teamId', 'in', [...ledTeamIds])] : []),
          ]),
        )
        .orderBy('e.id', 'desc')
        .execute()
    },

    async endpoint(id: number, trx: Db | Trx = db) {
      const row = await trx.selectFrom('webhookEndpoint').selectAll().where('id', '=', id).executeTakeFirst()
      return row && { ...row, secret: box.open(row.secret, SECRET) }
    },

    createEndpoint(
      values: {
        reAgentId: number
        teamId: number | null
        url: string
        description: string | null
        events: string[]
        secret: string
      },
      trx: Db | Trx = db,
    ) {
      return trx
        .insertInto('webhookEndpoint')
        .values({ ...values, secret: box.seal(values.secret, SECRET) })
        .returning('id')
        .executeTakeFirstOrThrow()
    },

    deleteEndpoint(id: number, trx: Db | Trx = db) {
      return trx.deleteFrom('webhookEndpoint').where('id', '=', id).executeTakeFirst()
    },

    /**
     * What these agents have switched on, in one statement: their own enabled endpoints (id and events),
     * the enabled endpoints of the active teams they are in and, as a row with a null id, a Follow Up
     * Boss key.
     */
    async integrationsOf(agentIds: number[], trx: Db | Trx = db) {
      const { rows } = await integrations(sql`${agentIds}::bigint[]`).execute(trx)
      return rows
    },

    /** Whether an endpoint of the open house's listing or hosting agent, or of their teams, listens. */
    async openHouseHasListeners(openHouseId: number, event: string, trx: Db | Trx = db): Promise<boolean> {
      const { rows } = await sql<{ listens: boolean }>`
        select exists (
          select 1 from (${integrations(sql`(
            select array[listing_re_agent_id, hosting_re_agent_id] from open_house where id = ${openHouseId}
          )::bigint[]`)}) i
          where i.id is not null and ${event} = any(i.events)
        ) as listens
      `.execute(trx)
      return rows[0]?.listens === true
    },

    createDelivery(values: Insertable<WebhookDeliveryTable>, trx: Db | Trx = db) {
      return trx.insertInto('webhookDelivery').values(values).returning('id').executeTakeFirstOrThrow()
    },

    deliveries(endpointId: number, limit: number, offset: number) {
      return db
        .selectFrom('webhookDelivery')
        .selectAll()
        .where('endpointId', '=', endpointId)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
    },

    delivery(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('webhookDelivery').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /**
     * Takes a pending delivery for one attempt, with a lease, in one statement outside any transaction:
     * a job that runs twice (a repeated relay, two workers) attempts it once.
     */
    claim(id: number) {
      return db
        .updateTable('webhookDelivery')
        .set({
          status: 'sending',
          leaseUntil: sql<Date>`now() + ${`${ATTEMPT_LEASE_MS} milliseconds`}::interval`,
          attempts: sql<number>`attempts + 1`,
          nextAttemptAt: null,
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

    /** The outcome of the attempt in hand (only while this attempt still owns the delivery). */
    finishAttempt(
      id: number,
      values: {
        status: 'pending' | 'succeeded' | 'failed'
        responseStatus: number | null
        latencyMs: number | null
        responseExcerpt: string | null
        lastError: string | null
        nextAttemptAt: Date | null
      },
      trx: Db | Trx = db,
    ) {
      return trx
        .updateTable('webhookDelivery')
        .set({ ...values, leaseUntil: null, lastAttemptAt: sql<Date>`now()` })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .executeTakeFirst()
    },

    /**
     * A finished delivery sent again (same message id), in one conditional statement: a pending one is
     * left alone, and so is one replayed within REPLAY_WINDOW_MS, so replays asked for at once (a double
     * click, concurrent requests) send it once, however fast its attempt ends.
     */
    reopen(id: number, trx: Db | Trx = db) {
      return trx
        .updateTable('webhookDelivery')
        .set({ status: 'pending', nextAttemptAt: null, lastError: null, replayedAt: sql<Date>`now()` })
        .where('id', '=', id)
        .where('status', 'in', ['succeeded', 'failed'])
        .where((eb) =>
          eb.or([
            eb('replayedAt', 'is', null),
            eb('replayedAt', '<', sql<Date>`now() - ${`${REPLAY_WINDOW_MS} milliseconds`}::interval`),
          ]),
        )
        .executeTakeFirst()
    },

    endpointSucceeded(id: number, trx: Db | Trx = db) {
      return trx
        .updateTable('webhookEndpoint')
        .set({ failingSince: null, disabledAt: null })
        .where('id', '=', id)
        .executeTakeFirst()
    },

    endpointFailed(id: number, trx: Db | Trx = db) {
      return trx
        .updateTable('webhookEndpoint')
        .set({ failingSince: sql<Date>`coalesce(failing_since, now())` })
        .where('id', '=', id)
        .executeTakeFirst()
    },

    /** Disables the endpoint once it has failed for `afterMs` without a success; answers it if it did. */
    disableIfFailingSince(id: number, afterMs: number, trx: Db | Trx = db) {
      return trx
        .updateTable('webhookEndpoint')
        .set({ disabledAt: sql<Date>`now()` })
        .where('id', '=', id)
        .where('disabledAt', 'is', null)
        .where('failingSince', '<=', sql<Date>`now() - ${`${afterMs} milliseconds`}::interval`)
        .returning(['id', 'url', 'reAgentId'])
        .executeTakeFirst()
    },

    ownerEmail(agentId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('reAgent')
        .select(['reAgentEmailId', 'reAgentFirstName'])
        .where('id', '=', agentId)
        .executeTakeFirst()
    },

    // ---- what the payloads are made of, read in the emitting transaction ----

    /** The open house with its agents' names, as the details of the API name them. */
    openHouse(id: number, trx: Db | Trx) {
      return trx
        .selectFrom('openHouse')
        .innerJoin('reAgent as la', 'la.id', 'openHouse.listingReAgentId')
        .leftJoin('reAgent as ha', 'ha.id', 'openHouse.hostingReAgentId')
        .innerJoin('reAgent as sa', 'sa.id', 'openHouse.scheduledByReAgentId')
        .selectAll('openHouse')
        .select([
          sql<string>`la.re_agent_first_name || ' ' || la.re_agent_last_name`.as('listingName'),
          'la.reAgentBrokerFirmName as listingBrokerage',
          sql<string>`sa.re_agent_first_name || ' ' || sa.re_agent_last_name`.as('schedulerName'),
          sql<string | null>`case when ha.id is null then null
            else ha.re_agent_first_name || ' ' || ha.re_agent_last_name end`.as('hostingName'),
        ])
        .where('openHouse.id', '=', id)
        .executeTakeFirst()
    },

    /** Agents' first and last names, by id. */
    async agentNames(ids: Array<number | null>, trx: Db | Trx): Promise<Map<number, string>> {
      const wanted = [...new Set(ids.filter((id): id is number => id !== null))]
      if (wanted.length === 0) return new Map()
      const rows = await trx
        .selectFrom('reAgent')
        .select(['id', 'reAgentFirstName', 'reAgentLastName'])
        .where('id', 'in', wanted)
        .execute()
      return new Map(rows.map((r) => [r.id, `${r.reAgentFirstName} ${r.reAgentLastName}`]))
    },

    async teamNames(ids: number[], trx: Db | Trx): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map()
      const rows = await trx
        .selectFrom('reTeam')
        .select(['id', 'reTeamName'])
        .where('id', 'in', ids)
        .execute()
      return new Map(rows.map((r) => [r.id, r.reTeamName]))
    },

    property(id: number, trx: Db | Trx) {
      return trx.selectFrom('reProperty').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /** The prospect, with its owner's name. */
    prospect(id: number, trx: Db | Trx) {
      return trx
        .selectFrom('prospect')
        .innerJoin('reAgent as owner', 'owner.id', 'prospect.createdByReAgentId')
        .selectAll('prospect')
        .select(sql<string>`owner.re_agent_first_name || ' ' || owner.re_agent_last_name`.as('ownerName'))
        .where('prospect.id', '=', id)
        .executeTakeFirst()
    },

    /** The visit (`visitId`), or the latest of the prospect's visits at the open house (decision 029). */
    attendee(openHouseId: number, prospectId: number, trx: Db | Trx, visitId?: number | null) {
      let q = trx
        .selectFrom('openHouseAttendee')
        .selectAll()
        .where('openHouseId', '=', openHouseId)
        .where('prospectId', '=', prospectId)
      if (visitId) q = q.where('id', '=', visitId)
      return q.orderBy('id', 'desc').limit(1).executeTakeFirst()
    },

    feedback(id: number, trx: Db | Trx) {
      return trx.selectFrom('openHouseFeedback').selectAll().where('id', '=', id).executeTakeFirst()
    },

    // ---- Follow Up Boss ----

    async fub(agentId: number, trx: Db | Trx = db) {
      const row = await trx
        .selectFrom('fubConnector')
        .selectAll()
        .where('reAgentId', '=', agentId)
        .executeTakeFirst()
      return row && { ...row, apiKey: box.open(row.apiKey, API_KEY) }
    },

    async saveFub(agentId: number, apiKey: string) {
      const sealed = box.seal(apiKey, API_KEY)
      const row = await db
        .insertInto('fubConnector')
        .values({ reAgentId: agentId, apiKey: sealed })
        // A new key starts with a clean record: nothing heard of it yet, its agent not yet told of a refusal.
        .onConflict((oc) =>
          oc.column('reAgentId').doUpdateSet({
            apiKey: sealed,
            createdDate: sql`now()`,
            status: 'ok',
            lastError: null,
            lastErrorAt: null,
            rejectionTold: false,
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow()
      return { ...row, apiKey }
    },

    deleteFub(agentId: number) {
      return db.deleteFrom('fubConnector').where('reAgentId', '=', agentId).executeTakeFirst()
    },
  }
}

export type WebhookRepo = ReturnType<typeof createWebhookRepo>
export type EndpointRow = NonNullable<Awaited<ReturnType<WebhookRepo['endpoint']>>>
export type DeliveryRow = NonNullable<Awaited<ReturnType<WebhookRepo['delivery']>>>
