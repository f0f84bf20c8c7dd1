import { type Insertable, type SelectQueryBuilder, sql, type Updateable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { Database, ProspectTable } from '../../db/types.ts'

export interface ListOptions {
  /** Already checked to be long enough (shared prospectSearchTerm). */
  term: string | null
  limit: number
  offset: number
}

type ProspectQuery<O> = SelectQueryBuilder<Database, 'prospect', O>

/** First or last name contains the term, whatever its case; LIKE wildcards in the term are literal. */
function searching<O>(q: ProspectQuery<O>, term: string | null): ProspectQuery<O> {
  if (!term) return q
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return q.where((eb) =>
    eb.or([
      eb('prospect.prospectFirstName', 'ilike', pattern),
      eb('prospect.prospectLastName', 'ilike', pattern),
    ]),
  )
}

export function createProspectRepo(db: Db) {
  return {
    getById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('prospect').selectAll().where('id', '=', id).executeTakeFirst()
    },

    byClientRequestId(clientRequestId: string, trx: Db | Trx = db) {
      return trx
        .selectFrom('prospect')
        .selectAll()
        .where('clientRequestId', '=', clientRequestId)
        .executeTakeFirst()
    },

    /**
     * The guest sign-in: a new prospect of the agent, or the agent's prospect with that email (whatever
     * its case) as it is; a returning visitor never overwrites what the agent has. Concurrent sign-ins of
     * one visitor meet at the unique index.
     */
    async insertGuest(values: Insertable<ProspectTable>, trx: Db | Trx = db) {
      const created = await trx
        .insertInto('prospect')
        .values(values)
        .onConflict((oc) => oc.expression(sql`created_by_re_agent_id, lower(prospect_email_id)`).doNothing())
        .returningAll()
        .executeTakeFirst()
      if (created) return created
      return trx
        .selectFrom('prospect')
        .selectAll()
        .where('createdByReAgentId', '=', values.createdByReAgentId)
        .where((eb) => eb(eb.fn('lower', ['prospectEmailId']), '=', values.prospectEmailId.toLowerCase()))
        .executeTakeFirstOrThrow()
    },

    create(values: Insertable<ProspectTable>, trx: Db | Trx = db) {
      return trx.insertInto('prospect').values(values).returningAll().executeTakeFirstOrThrow()
    },

    update(id: number, values: Updateable<ProspectTable>, trx: Db | Trx = db) {
      return trx
        .updateTable('prospect')
        .set({ ...values, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** The agent's prospects, newest first. */
    listByAgent(agentId: number, o: ListOptions) {
      return searching(
        db.selectFrom('prospect').selectAll('prospect').where('prospect.createdByReAgentId', '=', agentId),
        o.term,
      )
        .orderBy('prospect.createdDate', 'desc')
        .orderBy('prospect.id', 'desc')
        .limit(o.limit)
        .offset(o.offset)
        .execute()
    },

    /** The agent's prospects who have not (yet) attended the open house: candidates to add. */
    listByAgentNotIn(agentId: number, openHouseId: number, o: ListOptions) {
      return searching(
        db
          .selectFrom('prospect')
          .selectAll('prospect')
          .where('prospect.createdByReAgentId', '=', agentId)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('openHouseAttendee as a')
                  .select('a.id')
                  .whereRef('a.prospectId', '=', 'prospect.id')
                  .where('a.openHouseId', '=', openHouseId),
              ),
            ),
          ),
        o.term,
      )
        .orderBy('prospect.createdDate', 'desc')
        .orderBy('prospect.id', 'desc')
        .limit(o.limit)
        .offset(o.offset)
        .execute()
    },

    /** An open house's attendees with their details, latest sign-in first. */
    listByOpenHouse(openHouseId: number, limit: number, offset: number) {
      return db
        .selectFrom('openHouseAttendee as a')
        .innerJoin('prospect', 'prospect.id', 'a.prospectId')
        .selectAll('prospect')
        .select(['a.id as attendeeId', 'a.createdDate as signedInAt', 'a.listingAgentConsent'])
        .where('a.openHouseId', '=', openHouseId)
        .orderBy('a.createdDate', 'desc')
        .orderBy('a.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
    },

    /** Every prospect of the agent, oldest first, for the CSV export. */
    allOfAgent(agentId: number) {
      return db
        .selectFrom('prospect')
        .selectAll()
        .where('createdByReAgentId', '=', agentId)
        .orderBy('createdDate')
        .orderBy('id')
        .execute()
    },
  }
}

export type ProspectRepo = ReturnType<typeof createProspectRepo>
export type ProspectRow = NonNullable<Awaited<ReturnType<ProspectRepo['getById']>>>
