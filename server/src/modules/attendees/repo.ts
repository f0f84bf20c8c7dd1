import { sql } from 'kysely'
import { openHouseIntegrations } from '../../db/agent-integrations.ts'
import { compiledOnce, type Params } from '../../db/compiled-once.ts'
import type { Db } from '../../db/database.ts'
import { openHouseWithPeople } from '../../db/open-house-people.ts'
import type { Trx } from '../../db/transaction.ts'
import type { CaptureDevice } from '../../db/types.ts'

/** The columns a visit fills of its attendee row, beside the open house and the prospect. */
export const VISIT_COLUMNS = [
  'guestDetails',
  'listingAgentConsent',
  'captureDevice',
  'capturedOffline',
  'customAnswers',
] as const

/** A visit's columns as stored, JSON as text (attendees/service.ts `visitColumns` makes them). */
export interface VisitColumns {
  guestDetails: string | null
  listingAgentConsent: boolean
  captureDevice: CaptureDevice | null
  capturedOffline: boolean
  customAnswers: string | null
}

export function createAttendeeRepo(db: Db) {
  // A guest sign-in's statements, built once (compiled-once.ts): the hottest write path.
  const openHouseColumns = [
    'id',
    'listingReAgentId',
    'hostingReAgentId',
    'openHouseCanceledFlag',
    'publishedAt',
    'scheduledByReAgentId',
    'endsAt',
  ] as const
  const openHouse = compiledOnce(db, 'open-house', (v: Params<{ id: number }>) =>
    db.selectFrom('openHouse').select(openHouseColumns).where('id', '=', v.id),
  )
  // A sign-in's first read also brings what its agents have switched on (webhooks, Follow Up Boss).
  const openHouseForSignIn = compiledOnce(db, 'open-house-for-sign-in', (v: Params<{ id: number }>) =>
    db
      .selectFrom('openHouse')
      .select(openHouseColumns)
      .select(openHouseIntegrations.as('integrations'))
      .where('id', '=', v.id),
  )
  // An agent adds its prospect to an open house once: not when it is there already (added, or signed in
  // as a guest); two adds at once meet at the unique index of attendees no guest sign-in made.
  const insert = compiledOnce(
    db,
    'attendee-insert',
    (v: Params<VisitColumns & { openHouseId: number; prospectId: number }>) =>
      db
        .insertInto('openHouseAttendee')
        .columns(['openHouseId', 'prospectId', ...VISIT_COLUMNS])
        .expression(
          db
            .selectNoFrom((eb) => [
              eb.val(v.openHouseId).as('openHouseId'),
              eb.val(v.prospectId).as('prospectId'),
              ...VISIT_COLUMNS.map((c) => eb.val(v[c]).as(c)),
            ])
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('openHouseAttendee')
                    .select('id')
                    .where('openHouseId', '=', v.openHouseId)
                    .where('prospectId', '=', v.prospectId),
                ),
              ),
            ),
        )
        .onConflict((oc) =>
          oc.columns(['prospectId', 'openHouseId']).where('clientRequestId', 'is', null).doNothing(),
        )
        .returning(['id', 'createdDate']),
  )

  return {
    /** What attendance rules need of an open house: who lists it, who hosts it, whether it is canceled. */
    async openHouse(id: number, trx: Db | Trx = db) {
      const [row] = await openHouse({ id }, trx)
      return row
    },

    /** `openHouse`, with the integrations of its listing and hosting agents (a guest sign-in's first read). */
    async openHouseForSignIn(id: number, trx: Trx) {
      const [row] = await openHouseForSignIn({ id }, trx)
      return row
    },

    /** What a mail about a visit needs: the address, when, who hosts and where feedback is shared. */
    mailContext(id: number, trx: Db | Trx = db) {
      return openHouseWithPeople(trx)
        .select([
          'openHouse.scheduledDate',
          'openHouse.scheduledStartTime',
          'openHouse.scheduledEndTime',
          'openHouse.emailIdForSharingOhFeedback',
          'reProperty.propertyAddress1',
          'reProperty.propertyAddress2',
          'reProperty.propertyCity',
          'reProperty.propertyState',
          'reProperty.propertyZipCode',
          'reProperty.propertyZipPlus4',
          'reProperty.propertyCountry',
          'host.reAgentFirstName as hostFirstName',
          'host.reAgentLastName as hostLastName',
          'host.reAgentEmailId as hostEmail',
          'listing.reAgentFirstName as listingFirstName',
          'listing.reAgentLastName as listingLastName',
          'listing.reAgentEmailId as listingEmail',
        ])
        .where('openHouse.id', '=', id)
        .executeTakeFirstOrThrow()
    },

    prospect(id: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('prospect')
        .select(['id', 'createdByReAgentId', 'prospectFirstName', 'prospectLastName'])
        .where('id', '=', id)
        .executeTakeFirst()
    },

    /** An agent's add: a prospect already at the open house inserts nothing and answers undefined. */
    async insert(openHouseId: number, prospectId: number, visit: VisitColumns, trx: Db | Trx = db) {
      const [row] = await insert({ openHouseId, prospectId, ...visit }, trx)
      return row
    },

    /** How each attendee was captured at the door. */
    captures(openHouseId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('openHouseAttendee')
        .select(['id', 'captureDevice', 'capturedOffline', 'listingAgentConsent'])
        .where('openHouseId', '=', openHouseId)
        .execute()
    },

    /**
     * Marks the capture receipt sent, once, for an open house that ended and was not canceled; null if
     * it was sent already, or the open house is not over (its end moved: a later job sends it).
     */
    takeCaptureReceipt(openHouseId: number, trx: Trx) {
      return trx
        .updateTable('openHouse')
        .set({ captureReceiptSentAt: new Date() })
        .where('id', '=', openHouseId)
        .where('captureReceiptSentAt', 'is', null)
        .where('openHouseCanceledFlag', '=', false)
        .where('endsAt', '<=', new Date())
        .returning(['id', 'hostingReAgentId', 'listingReAgentId'])
        .executeTakeFirst()
    },

    exists(openHouseId: number, prospectId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('openHouseAttendee')
        .select('id')
        .where('openHouseId', '=', openHouseId)
        .where('prospectId', '=', prospectId)
        .executeTakeFirst()
        .then(Boolean)
    },

    /** Newest first; names only. */
    publicList(openHouseId: number, limit: number, offset: number) {
      // A guest's visit is named as it typed it (a returning visitor's record is the agent's, not public).
      return db
        .selectFrom('openHouseAttendee as a')
        .innerJoin('prospect as p', 'p.id', 'a.prospectId')
        .select([
          sql<string>`coalesce(a.guest_details->>'prospectFirstName', p.prospect_first_name)`.as(
            'prospectFirstName',
          ),
          sql<string>`coalesce(a.guest_details->>'prospectLastName', p.prospect_last_name)`.as(
            'prospectLastName',
          ),
          'a.createdDate',
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

export type AttendeeRepo = ReturnType<typeof createAttendeeRepo>
