import { type Insertable, type SelectQueryBuilder, sql, type Updateable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { Database, ProspectTable } from '../../db/types.ts'

/** Optional details a returning visitor left blank keep what the agent already has. */
const KEPT_WHEN_BLANK = [
  'prospectMiddleName',
  'prospectAddress1',
  'prospectAddress2',
  'prospectCity',
  'prospectState',
  'prospectZipCode',
  'prospectZipPlus4',
  'prospectCounty',
  'prospectCountry',
  'currentHouseStatus',
  'homeBuyingTimelines',
  'bestTimeToContact',
  'heardAboutThisOpenHouse',
  'prospectNotification',
] as const satisfies ReadonlyArray<keyof ProspectTable>

const REPLACED = [
  'prospectFirstName',
  'prospectLastName',
  'prospectEmailId',
  'prospectPhoneNumber',
  'clientRequestId',
  'emailConsent',
  'smsConsent',
  'consentText',
  'consentAt',
] as const satisfies ReadonlyArray<keyof ProspectTable>

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
     * The guest sign-in in one statement: a new prospect, or the agent's prospect with that email
     * (whatever its case) brought up to date. Concurrent sign-ins of one visitor meet at the unique index.
     */
    upsertGuest(values: Insertable<ProspectTable>, trx: Db | Trx = db) {
      return trx
        .insertInto('prospect')
        .values(values)
        .onConflict((oc) =>
          oc.expression(sql`created_by_re_agent_id, lower(prospect_email_id)`).doUpdateSet((eb) => {
            const set: Record<string, unknown> = { updatedDate: sql`now()` }
            for (const column of REPLACED) set[column] = eb.ref(`excluded.${column}`)
            // The flag has a default, so an absent one cannot be told apart in `excluded`: left out, it stays.
            if (values.workingWithReAgentFlag !== undefined) {
              set.workingWithReAgentFlag = eb.ref('excluded.workingWithReAgentFlag')
            }
            for (const column of KEPT_WHEN_BLANK) {
              set[column] = eb.fn.coalesce(eb.ref(`excluded.${column}`), eb.ref(`prospect.${column}`))
            }
            return set as Updateable<ProspectTable>
          }),
        )
        .returningAll()
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
        .select(['a.id as attendeeId', 'a.createdDate as signedInAt'])
        .where('a.openHouseId', '=', openHouseId)
        .orderBy('a.createdDate', 'desc')
        .orderBy('a.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
    },

    /** Whether the prospect attended an open house the agent lists or hosts. */
    attendedOpenHouseOf(prospectId: number, agentId: number) {
      return db
        .selectFrom('openHouseAttendee as a')
        .innerJoin('openHouse as oh', 'oh.id', 'a.openHouseId')
        .select('a.id')
        .where('a.prospectId', '=', prospectId)
        .where((eb) =>
          eb.or([eb('oh.listingReAgentId', '=', agentId), eb('oh.hostingReAgentId', '=', agentId)]),
        )
        .executeTakeFirst()
        .then(Boolean)
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
