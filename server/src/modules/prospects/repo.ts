import {
  type EmailConsentState,
  type HomeBuyingTimeline,
  PROSPECT_TEXT_FIELDS,
  type ProspectSort,
  type ProspectStage,
} from '@porchlight/shared'
import { type Insertable, type RawBuilder, type SelectQueryBuilder, sql, type Updateable } from 'kysely'
import { anyIntegration } from '../../db/agent-integrations.ts'
import { compiledOnce, type Params } from '../../db/compiled-once.ts'
import type { Db } from '../../db/database.ts'
import type { Trx } from '../../db/transaction.ts'
import type { Database, ProspectTable } from '../../db/types.ts'
import { carriedTrace } from '../../jobs/outbox.ts'
import { VISIT_COLUMNS, type VisitColumns } from '../attendees/service.ts'
import { doorAgentSql, openSince, sharesWithListingAgentSql, signInOpenSql } from './door.ts'

export interface ListOptions {
  /** Already checked to be long enough (shared prospectSearchTerm). */
  term: string | null
  limit: number
  offset: number
}

type ProspectQuery<O> = SelectQueryBuilder<Database, 'prospect', O>

/**
 * The columns a guest's sign-in writes of a new prospect: its statement is built once, with all of them.
 * The sign-in's clientRequestId is its visit's (a prospect made before decision 029 keeps its first).
 */
const GUEST_COLUMNS = [
  ...PROSPECT_TEXT_FIELDS,
  'currentHouseStatus',
  'homeBuyingTimelines',
  'bestTimeToContact',
  'heardAboutThisOpenHouse',
  'prospectNotification',
  'workingWithReAgentFlag',
  'createdByReAgentId',
  'emailConsent',
  'smsConsent',
  'consentText',
  'consentAt',
] as const satisfies ReadonlyArray<keyof ProspectTable>

type GuestColumn = (typeof GUEST_COLUMNS)[number]
/** A guest's prospect: every column named, undefined where the guest left it out (stored as null). */
export type GuestProspect = { [K in GuestColumn]-?: Insertable<ProspectTable>[K] | undefined } & {
  prospectFirstName: string
  prospectLastName: string
  prospectEmailId: string
  createdByReAgentId: number
}

/** The own list's filters (issue 13); each one given narrows the list. */
export interface ProspectFilters {
  term: string | null
  noRealtor?: boolean | undefined
  timeline?: HomeBuyingTimeline | undefined
  stage?: ProspectStage | undefined
  openHouseId?: number | undefined
}

export interface OwnListOptions extends ProspectFilters {
  sort: ProspectSort
  limit: number
  offset: number
}

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

/** The agent's own prospects matching the filters; `noRealtor: false` is no filter, as absent is. */
function ownMatching(db: Db | Trx, agentId: number, f: ProspectFilters) {
  let q = searching(db.selectFrom('prospect').where('prospect.createdByReAgentId', '=', agentId), f.term)
  if (f.noRealtor) q = q.where('prospect.workingWithReAgentFlag', '=', false)
  if (f.timeline) q = q.where('prospect.homeBuyingTimelines', '=', f.timeline)
  if (f.stage) q = q.where('prospect.prospectStage', '=', f.stage)
  const { openHouseId } = f
  if (openHouseId !== undefined) {
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('openHouseAttendee as a')
          .select('a.id')
          .whereRef('a.prospectId', '=', 'prospect.id')
          .where('a.openHouseId', '=', openHouseId),
      ),
    )
  }
  return q
}

/** Each sort ends on the id, so a page never repeats or skips a row; each has its index (202611250003). */
function sorted<O>(q: ProspectQuery<O>, sort: ProspectSort): ProspectQuery<O> {
  switch (sort) {
    case 'name':
      return q
        .orderBy(sql`lower(prospect.prospect_last_name)`)
        .orderBy(sql`lower(prospect.prospect_first_name)`)
        .orderBy('prospect.id')
    case 'followUp':
      // Soonest (and overdue) first; those with no date after them all.
      return q.orderBy('prospect.nextFollowUpDate', (ob) => ob.asc().nullsLast()).orderBy('prospect.id')
    case 'newest':
      return q.orderBy('prospect.createdDate', 'desc').orderBy('prospect.id', 'desc')
  }
}

/**
 * Every match of the agent's filters for the export, in the list's order, with the property of the open
 * house each last attended and its notes, oldest first.
 */
function exportQuery(db: Db | Trx, agentId: number, f: ProspectFilters & { sort: ProspectSort }) {
  return sorted(
    ownMatching(db, agentId, f)
      // Only what the CSV shows: reading every column of 100,000 rows costs as much as the query.
      .select([
        'prospect.id',
        'prospect.prospectFirstName',
        'prospect.prospectLastName',
        'prospect.prospectEmailId',
        'prospect.prospectPhoneNumber',
        'prospect.prospectAddress1',
        'prospect.prospectAddress2',
        'prospect.prospectCity',
        'prospect.prospectState',
        'prospect.prospectZipCode',
        'prospect.prospectZipPlus4',
        'prospect.prospectStage',
        'prospect.homeBuyingTimelines',
        'prospect.workingWithReAgentFlag',
        'prospect.nextFollowUpDate',
      ])
      .select((eb) => [
        eb
          .selectFrom('openHouseAttendee as a')
          .innerJoin('openHouse as oh', 'oh.id', 'a.openHouseId')
          .innerJoin('reProperty as p', 'p.id', 'oh.rePropertyId')
          .select(
            sql<string>`concat_ws(', ', p.property_address1, p.property_city,
              concat_ws(' ', p.property_state, p.property_zip_code))`.as('address'),
          )
          .whereRef('a.prospectId', '=', 'prospect.id')
          .orderBy('a.createdDate', 'desc')
          .orderBy('a.id', 'desc')
          .limit(1)
          .as('sourceAddress'),
        eb
          .selectFrom('prospectNote as n')
          .select(
            sql<string>`string_agg(to_char(n.created_date at time zone 'UTC', 'YYYY-MM-DD') || ': ' || n.note_text,
              E'\n' order by n.created_date, n.id)`.as('notes'),
          )
          .whereRef('n.prospectId', '=', 'prospect.id')
          .as('notes'),
        // The owner's consent ledger for the address (index probes), then the choice made at sign-in.
        sql<EmailConsentState>`case
          when exists (select 1 from consent_event e where e.re_agent_id = ${agentId}
            and e.email = lower(prospect.prospect_email_id) and e.kind = 'email_opt_out') then 'out'
          when prospect.email_consent or exists (select 1 from consent_event e where e.re_agent_id = ${agentId}
            and e.email = lower(prospect.prospect_email_id) and e.kind = 'email_opt_in') then 'in'
          when prospect.consent_at is not null then 'declined'
          else 'none' end`.as('emailConsentState'),
      ]),
    f.sort,
  )
}

/** A guest's sign-in: the prospect as typed (kept only if new), the visit, and the visit's token. */
export type GuestSignIn = Omit<GuestProspect, 'createdByReAgentId'> &
  VisitColumns & {
    tokenHash: string
    openHouseId: number
    clientRequestId: string
    /** The guest agreed to email: the visit is owed its welcome, which the worker does (decision 053). */
    welcome: boolean
    /** The request's trace (JSON), kept with the welcome owed; null outside a request. */
    welcomeTrace: string | null
    /**
     * The caller's transaction read the open house and checked the door's rules (door.ts) itself; else
     * the statement checks them, and that none of the door's agents has an integration, and writes
     * nothing when one fails (decision 061).
     */
    doorChecked: boolean
    /** `openSince(now)` (door.ts): the rule's clock is the API's, as in the transaction's check. */
    openSince: Date
  }

/** The guest's prospect's columns but its owner, which the door names (`door.owner`). */
const TYPED_COLUMNS = GUEST_COLUMNS.filter(
  (c): c is Exclude<GuestColumn, 'createdByReAgentId'> => c !== 'createdByReAgentId',
)

/** What a sign-in's caller gives (the trace and the door's check are the repository's). */
export type SignInValues = Omit<GuestSignIn, 'welcomeTrace' | 'doorChecked' | 'openSince'>

/**
 * The statement's values: the caller's, with the door's check, and the request's trace, which the
 * welcome owed carries to the rows the worker writes for it. Added to the caller's object, made for this
 * one sign-in, not copied: on Node 20 a copy by spread of an object this size, with properties added,
 * builds a new hidden class on every call (decision 066).
 */
const withTrace = (signIn: SignInValues, door: Pick<GuestSignIn, 'doorChecked' | 'openSince'>): GuestSignIn =>
  Object.assign(signIn, {
    doorChecked: door.doorChecked,
    openSince: door.openSince,
    welcomeTrace: signIn.welcome ? carriedTrace() : null,
  })

export function createProspectRepo(db: Db) {
  // The sign-in, built once (compiled-once.ts): in one statement, the open house at the door (its rules
  // checked here unless the caller's transaction did: door.ts), the agent's prospect (made from what the
  // guest typed if the agent has none with that email, else found, never overwritten), a visit of its
  // own and the guest's token for that visit only. A known email and a new one take the same path and
  // answer the same shape (decision 029); an open house refused writes nothing and answers no row.
  const guestSignIn = (v: Params<GuestSignIn>) =>
    db
      .with('door', (qc) =>
        qc
          .selectFrom('openHouse')
          .select([
            'openHouse.id',
            'openHouse.listingReAgentId',
            'openHouse.hostingReAgentId',
            doorAgentSql.as('owner'),
            sharesWithListingAgentSql.as('shares'),
          ])
          .where('openHouse.id', '=', v.openHouseId)
          .where(
            sql<boolean>`(${v.doorChecked}::boolean or (${signInOpenSql(v.openSince)} and not ${anyIntegration(
              sql`array[open_house.listing_re_agent_id, open_house.hosting_re_agent_id]`,
            )}))`,
          ),
      )
      .with('created', (qc) =>
        qc
          .insertInto('prospect')
          .columns([...TYPED_COLUMNS, 'createdByReAgentId'])
          .expression((eb) =>
            eb.selectFrom('door').select([...TYPED_COLUMNS.map((c) => eb.val(v[c]).as(c)), 'door.owner']),
          )
          .onConflict((oc) =>
            oc.expression(sql`created_by_re_agent_id, lower(prospect_email_id)`).doNothing(),
          )
          .returning('id'),
      )
      // The agent's prospect with that email: the one just made, or the one it had before this
      // statement began. One made meanwhile by a simultaneous sign-in is in neither: no row, and the
      // statement runs again (signInGuest below), which then finds it.
      .with('visitor', (qc) =>
        qc
          .selectFrom('created')
          .select(['created.id', sql<boolean>`true`.as('created')])
          .unionAll(
            qc
              .selectFrom('prospect')
              .select(['prospect.id', sql<boolean>`false`.as('created')])
              .where('prospect.createdByReAgentId', '=', sql<number>`(select owner from door)`)
              .where(sql`lower(prospect.prospect_email_id)`, '=', sql`lower(${v.prospectEmailId}::text)`)
              .where(({ not, exists, selectFrom }) =>
                not(exists(selectFrom('created').select('created.id'))),
              ),
          ),
      )
      // The box "share my details with the listing agent" counts only where another agent hosts (door.ts),
      // in the column and in the details as typed alike.
      .with('visit', (qc) =>
        qc
          .insertInto('openHouseAttendee')
          .columns(['openHouseId', 'prospectId', 'clientRequestId', ...VISIT_COLUMNS])
          .expression((eb) => {
            const shared = sql<boolean>`(${v.listingAgentConsent}::boolean and door.shares)`
            const value = (c: (typeof VISIT_COLUMNS)[number]): RawBuilder<unknown> =>
              c === 'listingAgentConsent'
                ? shared
                : c === 'guestDetails'
                  ? sql`${v.guestDetails}::jsonb || jsonb_build_object('listingAgentConsent', ${shared})`
                  : sql`${v[c]}`
            return eb
              .selectFrom('visitor')
              .crossJoin('door')
              .select([
                'door.id as openHouseId',
                'visitor.id',
                sql<string>`${v.clientRequestId}::uuid`.as('clientRequestId'),
                ...VISIT_COLUMNS.map((c) => value(c).as(c)),
              ])
          })
          .returning(['id', 'prospectId', 'createdDate', 'openHouseId']),
      )
      .with('token', (qc) =>
        qc
          .insertInto('guestToken')
          .columns(['tokenHash', 'prospectId', 'openHouseId', 'attendeeId'])
          .expression((eb) =>
            eb
              .selectFrom('visit')
              .select([
                eb.val(v.tokenHash).as('tokenHash'),
                'visit.prospectId',
                'visit.openHouseId',
                'visit.id',
              ]),
          ),
      )
      // A consenting guest's visit is owed its welcome (consent ledger, thank-you, follow-up): one
      // narrow row the worker takes in batches, so this sign-in makes no more round trips than another.
      .with('welcome', (qc) =>
        qc
          .insertInto('guestWelcome')
          .columns(['attendeeId', 'trace'])
          .expression((eb) =>
            eb
              .selectFrom('visit')
              .select(['visit.id', sql<string | null>`${v.welcomeTrace}::jsonb`.as('trace')])
              .where(sql<boolean>`${v.welcome}::boolean`),
          ),
      )
      .selectFrom('visit')
      .crossJoin('visitor')
      .crossJoin('door')
      .select([
        'visit.id',
        'visit.prospectId',
        'visit.createdDate',
        'visitor.created',
        'door.listingReAgentId',
        'door.hostingReAgentId',
      ])
  const signInGuest = compiledOnce(db, 'guest-sign-in', guestSignIn)

  return {
    getById(id: number, trx: Db | Trx = db) {
      return trx.selectFrom('prospect').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /** The visit a guest sign-in made with this clientRequestId, with whose lead it is. */
    visitByClientRequestId(clientRequestId: string, trx: Db | Trx = db) {
      return trx
        .selectFrom('openHouseAttendee as a')
        .innerJoin('prospect as p', 'p.id', 'a.prospectId')
        .select(['a.id', 'a.openHouseId', 'a.prospectId', 'p.createdByReAgentId'])
        .where('a.clientRequestId', '=', clientRequestId)
        .executeTakeFirst()
    },

    /**
     * The guest sign-in (`guestSignIn` above) in the caller's transaction, which has read the open house
     * and checked the door's rules: the visit's id, its prospect's and whether the prospect is new
     * (`created`). A repeated clientRequestId fails at its unique index (the caller then answers the first).
     */
    async signInGuest(signIn: SignInValues, trx: Trx) {
      const values = withTrace(signIn, { doorChecked: true, openSince: new Date() })
      const [row] = await signInGuest(values, trx)
      if (row) return row
      // A simultaneous sign-in of the same email made the prospect after the statement began, and it
      // wrote nothing. Run again in the same transaction, it reads as of now (read committed): it finds it.
      const [again] = await signInGuest(values, trx)
      if (!again) throw new Error('a sign-in found no prospect made by a sign-in before it')
      return again
    },

    /**
     * The same sign-in as one statement on its own (atomic without BEGIN and COMMIT, decision 061): the
     * statement checks the door's rules at `now` and that none of its agents has an integration. No row
     * when it wrote nothing (the door refused, or a simultaneous sign-in of the same email): the caller
     * then takes the transaction, which answers as before.
     */
    async signInGuestAtDoor(signIn: SignInValues, now: number) {
      const [row] = await signInGuest(withTrace(signIn, { doorChecked: false, openSince: openSince(now) }))
      return row
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

    /** A page of the agent's own list, filtered and sorted. */
    listOwn(agentId: number, o: OwnListOptions) {
      return sorted(ownMatching(db, agentId, o).selectAll('prospect'), o.sort)
        .limit(o.limit)
        .offset(o.offset)
        .execute()
    },

    /** How many of the agent's prospects match (the list's total). */
    async countOwn(agentId: number, f: ProspectFilters): Promise<number> {
      const row = await ownMatching(db, agentId, f)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },

    /**
     * Every match of the agent's filters for the export, in the list's order, with the property of the
     * open house each last attended and its notes, oldest first.
     */
    exportOwn(agentId: number, f: ProspectFilters & { sort: ProspectSort }) {
      // The per-row look-ups make the planner's estimate large enough to compile the query with JIT,
      // which took a second of the 1.4 s of a 20,000-row export; the look-ups themselves are index probes.
      return db.transaction().execute(async (trx) => {
        await sql`set local jit = off`.execute(trx)
        return exportQuery(trx, agentId, f).execute()
      })
    },

    /** The open houses whose guests are the agent's: those it lists or hosts, latest first. */
    openHousesOf(agentId: number, limit: number) {
      return db
        .selectFrom('openHouse as oh')
        .innerJoin('reProperty as p', 'p.id', 'oh.rePropertyId')
        .select([
          'oh.id as openHouseId',
          'oh.scheduledDate',
          sql<string>`concat_ws(', ', p.property_address1, p.property_city)`.as('propertyAddress'),
        ])
        .where((eb) =>
          eb.or([eb('oh.listingReAgentId', '=', agentId), eb('oh.hostingReAgentId', '=', agentId)]),
        )
        .orderBy('oh.scheduledDate', (ob) => ob.desc().nullsLast())
        .orderBy('oh.id', 'desc')
        .limit(limit)
        .execute()
    },

    updateFollowUp(
      id: number,
      values: Pick<Updateable<ProspectTable>, 'prospectStage' | 'nextFollowUpDate'>,
      trx: Db | Trx = db,
    ) {
      return trx
        .updateTable('prospect')
        .set({ ...values, updatedDate: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
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
        .select([
          'a.id as attendeeId',
          'a.createdDate as signedInAt',
          'a.listingAgentConsent',
          'a.customAnswers',
        ])
        .where('a.openHouseId', '=', openHouseId)
        .orderBy('a.createdDate', 'desc')
        .orderBy('a.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
    },
  }
}

export type ProspectRepo = ReturnType<typeof createProspectRepo>
export type ProspectRow = NonNullable<Awaited<ReturnType<ProspectRepo['getById']>>>
