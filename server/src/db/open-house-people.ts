import type { Db } from './database.ts'
import type { Trx } from './transaction.ts'

/**
 * An open house with its property, its listing agent (as `listing`) and its host (as `host`, null
 * while nobody hosts): where a mail, a calendar entry or a report about one open house starts.
 */
export function openHouseWithPeople(db: Db | Trx) {
  return db
    .selectFrom('openHouse')
    .innerJoin('reProperty', 'reProperty.id', 'openHouse.rePropertyId')
    .innerJoin('reAgent as listing', 'listing.id', 'openHouse.listingReAgentId')
    .leftJoin('reAgent as host', 'host.id', 'openHouse.hostingReAgentId')
}
