import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import { openHouseWithPeople } from '../../db/open-house-people.ts'
import type { SecretBox } from '../../secrets.ts'

const TOKEN = 'calendar_feed.token'
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * Agents' secret calendar feeds and the open houses each feed lists. A feed is found by its token's
 * SHA-256; the token itself is kept sealed, only so the agent can copy the same address again
 * (decisions 011 and 033).
 */
export function createCalendarRepo(db: Db, box: SecretBox) {
  return {
    /** The agent's feed token: the one it has, or `fresh` made its own. One statement, race-safe. */
    async tokenOf(reAgentId: number, fresh: string): Promise<string> {
      await db
        .insertInto('calendarFeed')
        .values({ reAgentId, token: box.seal(fresh, TOKEN), tokenHash: hashOf(fresh) })
        .onConflict((oc) => oc.column('reAgentId').doNothing())
        .execute()
      const row = await db
        .selectFrom('calendarFeed')
        .select('token')
        .where('reAgentId', '=', reAgentId)
        .executeTakeFirstOrThrow()
      return box.open(row.token, TOKEN)
    },

    async remove(reAgentId: number): Promise<boolean> {
      const rows = await db
        .deleteFrom('calendarFeed')
        .where('reAgentId', '=', reAgentId)
        .returning('reAgentId')
        .execute()
      return rows.length > 0
    },

    async agentOf(token: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('calendarFeed')
        .select('reAgentId')
        .where('tokenHash', '=', hashOf(token))
        .executeTakeFirst()
      return row?.reAgentId
    },

    /**
     * Open houses the agent lists or hosts that have not ended, canceled ones too (their calendars must
     * hear of the cancellation); a flexible date has no time to put in a calendar yet.
     */
    upcoming(reAgentId: number) {
      return openHouseWithPeople(db)
        .select([
          'openHouse.id',
          'openHouse.startsAt',
          'openHouse.endsAt',
          'openHouse.openHouseCanceledFlag',
          'openHouse.openHouseCancelReason',
          'openHouse.openHouseInstructions',
          'openHouse.listingReAgentId',
          'openHouse.hostingReAgentId',
          'openHouse.createdDate',
          'openHouse.updatedDate',
          'reProperty.propertyAddress1',
          'reProperty.propertyAddress2',
          'reProperty.propertyCity',
          'reProperty.propertyState',
          'reProperty.propertyZipCode',
          'reProperty.propertyZipPlus4',
          'reProperty.propertyCountry',
          'reProperty.propertyLatitude',
          'reProperty.propertyLongitude',
          'listing.reAgentFirstName as listingFirstName',
          'listing.reAgentLastName as listingLastName',
          'listing.reAgentEmailId as listingEmail',
          'host.reAgentFirstName as hostFirstName',
          'host.reAgentLastName as hostLastName',
        ])
        .where((eb) =>
          eb.or([
            eb('openHouse.listingReAgentId', '=', reAgentId),
            eb('openHouse.hostingReAgentId', '=', reAgentId),
          ]),
        )
        .where('openHouse.startsAt', 'is not', null)
        .where('openHouse.endsAt', '>', sql<Date>`now()`)
        .orderBy('openHouse.startsAt')
        .limit(1000)
        .execute()
    },
  }
}

export type CalendarRepo = ReturnType<typeof createCalendarRepo>
