import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import { sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import { openHouseWithPeople } from '../../db/open-house-people.ts'
import type { Trx } from '../../db/transaction.ts'

/** Seller report links (only their tokens' hashes) and the report's reads. */
export function createSellerReportRepo(db: Db) {
  return {
    create(
      row: {
        openHouseId: number
        tokenHash: string
        token: string
        createdByReAgentId: number
        expiresAt: Date
        sellerEmail: string | null
      },
      trx: Db | Trx = db,
    ) {
      return trx
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

    /** The newest working link of the open house: the one the seller's address goes with. */
    newestWorking(openHouseId: number, trx: Db | Trx = db) {
      return trx
        .selectFrom('sellerReportLink as l')
        .leftJoin('sellerReportMail as m', (j) =>
          j.onRef('m.linkId', '=', 'l.id').onRef('m.openHouseId', '=', 'l.openHouseId'),
        )
        .select(['l.id', 'l.token', 'l.sellerEmail', 'l.sellerUnsubscribedAt', 'm.createdAt as mailedAt'])
        .where('l.openHouseId', '=', openHouseId)
        .where('l.revokedAt', 'is', null)
        .where('l.expiresAt', '>', sql<Date>`now()`)
        .orderBy('l.id', 'desc')
        .limit(1)
        .executeTakeFirst()
    },

    /** A new address forgets an unsubscribe made from the one before; the same address keeps it. */
    setSellerEmail(linkId: number, sellerEmail: string | null, trx: Db | Trx = db) {
      return trx
        .updateTable('sellerReportLink')
        .set({
          sellerEmail,
          sellerUnsubscribedAt: sql<Date | null>`case when lower(seller_email) = lower(${sellerEmail})
            then seller_unsubscribed_at end`,
        })
        .where('id', '=', linkId)
        .execute()
    },

    /**
     * The links of an ended open house whose seller is still to be mailed: working, with an address,
     * not unsubscribed, and no mail taken for the link and open house yet.
     */
    sellersToMail(openHouseId: number, trx: Trx) {
      return trx
        .selectFrom('sellerReportLink as l')
        .innerJoin('openHouse as oh', 'oh.id', 'l.openHouseId')
        .select(['l.id', 'l.token', 'l.sellerEmail', 'l.expiresAt'])
        .where('l.openHouseId', '=', openHouseId)
        .where('oh.openHouseCanceledFlag', '=', false)
        .where('oh.endsAt', '<=', sql<Date>`now()`)
        .where('l.sellerEmail', 'is not', null)
        .where('l.token', 'is not', null)
        .where('l.sellerUnsubscribedAt', 'is', null)
        .where('l.revokedAt', 'is', null)
        .where('l.expiresAt', '>', sql<Date>`now()`)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('sellerReportMail as m')
                .select('m.linkId')
                .whereRef('m.linkId', '=', 'l.id')
                .whereRef('m.openHouseId', '=', 'l.openHouseId'),
            ),
          ),
        )
        .orderBy('l.id')
        .forUpdate('l')
        .execute()
    },

    /** Takes the link's one mail for the open house: false when another job took it first. */
    async takeSellerMail(
      row: { linkId: number; openHouseId: number; unsubscribeTokenHash: string },
      trx: Trx,
    ): Promise<boolean> {
      const taken = await trx
        .insertInto('sellerReportMail')
        .values({ ...row, mailId: null })
        .onConflict((oc) => oc.columns(['linkId', 'openHouseId']).doNothing())
        .returning('linkId')
        .executeTakeFirst()
      return taken !== undefined
    },

    setSellerMail(linkId: number, openHouseId: number, mailId: number, trx: Trx) {
      return trx
        .updateTable('sellerReportMail')
        .set({ mailId })
        .where('linkId', '=', linkId)
        .where('openHouseId', '=', openHouseId)
        .execute()
    },

    /** The link a seller's unsubscribe token was given for, and whether it is unsubscribed already. */
    unsubscribeTarget(tokenHash: string) {
      return db
        .selectFrom('sellerReportMail as m')
        .innerJoin('sellerReportLink as l', 'l.id', 'm.linkId')
        .select(['l.id', 'l.sellerUnsubscribedAt'])
        .where('m.unsubscribeTokenHash', '=', tokenHash)
        .executeTakeFirst()
    },

    /** Records the seller's unsubscribe once: a repeat keeps the first time. */
    unsubscribeSeller(linkId: number) {
      return db
        .updateTable('sellerReportLink')
        .set({ sellerUnsubscribedAt: sql<Date>`coalesce(seller_unsubscribed_at, now())` })
        .where('id', '=', linkId)
        .execute()
    },

    /** The working link a token's hash names. */
    byTokenHash(tokenHash: string) {
      return db
        .selectFrom('sellerReportLink')
        .select(['id', 'openHouseId', 'expiresAt'])
        .where('tokenHash', '=', tokenHash)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .executeTakeFirst()
    },

    openHouse(id: number, trx: Db | Trx = db) {
      return openHouseWithPeople(trx)
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
          'listing.reAgentEmailId as listingEmail',
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
    visits(openHouseId: number, trx: Db | Trx = db) {
      return trx
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

    feedback(openHouseId: number, trx: Db | Trx = db) {
      return trx
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
