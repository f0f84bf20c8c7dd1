import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import { sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import { openHouseWithPeople } from '../../db/open-house-people.ts'

/** Seller report links (only their tokens' hashes) and the report's reads. */
export function createSellerReportRepo(db: Db) {
  return {
    create(row: { openHouseId: number; tokenHash: string; createdByReAgentId: number; expiresAt: Date }) {
      return db
        .insertInto('sellerReportLink')
        .values(row)
        .returning(['id', 'expiresAt'])
        .executeTakeFirstOrThrow()
    },

    /** Ends every working link of the open house at once; the number of links it ended. */
    async revokeAll(openHouseId: number): Promise<number> {
      const rows = await db
        .updateTable('sellerReportLink')
        .set({ revokedAt: sql`now()` })
        .where('openHouseId', '=', openHouseId)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .returning('id')
        .execute()
      return rows.length
    },

    /** How many links of the open house work now, and when the last of them stops. */
    async working(openHouseId: number): Promise<{ active: number; expiresAt: Date | null }> {
      const row = await db
        .selectFrom('sellerReportLink')
        .select((eb) => [eb.fn.countAll<number>().as('active'), eb.fn.max('expiresAt').as('expiresAt')])
        .where('openHouseId', '=', openHouseId)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .executeTakeFirstOrThrow()
      return { active: Number(row.active), expiresAt: row.expiresAt ?? null }
    },

    /** The working link a token's hash names. */
    byTokenHash(tokenHash: string) {
      return db
        .selectFrom('sellerReportLink')
        .select(['openHouseId', 'expiresAt'])
        .where('tokenHash', '=', tokenHash)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .executeTakeFirst()
    },

    openHouse(id: number) {
      return openHouseWithPeople(db)
        .select([
          'openHouse.scheduledDate',
          'openHouse.scheduledStartTime',
          'openHouse.scheduledEndTime',
          'openHouse.openHouseTimezone',
          'openHouse.startsAt',
          'openHouse.endsAt',
          'openHouse.openHouseCanceledFlag',
          'reProperty.propertyAddress1',
          'reProperty.propertyAddress2',
          'reProperty.propertyCity',
          'reProperty.propertyState',
          'reProperty.propertyZipCode',
          'reProperty.propertyZipPlus4',
          'reProperty.propertyCountry',
          'listing.reAgentFirstName as listingFirstName',
          'listing.reAgentLastName as listingLastName',
          'host.reAgentFirstName as hostFirstName',
          'host.reAgentLastName as hostLastName',
        ])
        .where('openHouse.id', '=', id)
        .executeTakeFirst()
    },

    /**
     * The visits, earliest first, with the choices the visitor made at that visit (what it typed at the
     * door, else its prospect's). The names come along only to be taken out of comments; the report
     * never carries them.
     */
    visits(openHouseId: number) {
      return db
        .selectFrom('openHouseAttendee as a')
        .innerJoin('prospect as p', 'p.id', 'a.prospectId')
        .select([
          'a.createdDate as signedInAt',
          sql<
            string | null
          >`coalesce(a.guest_details->>'heardAboutThisOpenHouse', p.heard_about_this_open_house)`.as(
            'heardAboutThisOpenHouse',
          ),
          sql<string | null>`coalesce(a.guest_details->>'homeBuyingTimelines', p.home_buying_timelines)`.as(
            'homeBuyingTimelines',
          ),
          // A guest who left the question empty did not say; an agent's own prospect has its flag.
          sql<boolean | null>`case when a.guest_details is null then p.working_with_re_agent_flag
            else (a.guest_details->>'workingWithREAgentFlag')::boolean end`.as('withAgent'),
          'p.prospectFirstName',
          'p.prospectMiddleName',
          'p.prospectLastName',
        ])
        .where('a.openHouseId', '=', openHouseId)
        .orderBy('a.createdDate')
        .orderBy('a.id')
        .execute()
    },

    feedback(openHouseId: number) {
      return db
        .selectFrom('openHouseFeedback')
        .select(['feedbackText', ...FEEDBACK_RATING_FIELDS])
        .where('openHouseId', '=', openHouseId)
        .orderBy('createdDate', 'desc')
        .orderBy('id', 'desc')
        .execute()
    },
  }
}

export type SellerReportRepo = ReturnType<typeof createSellerReportRepo>
