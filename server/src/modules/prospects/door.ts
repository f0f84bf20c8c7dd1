import { doorAgentId, SIGN_IN_AFTER_END_MS, signInClosed } from '@porchlight/shared'
import { type Expression, sql } from 'kysely'
import { type OpenHouseRef, onShow } from '../attendees/service.ts'

// The door's rules for a guest's sign-in, stated once for its two paths: in TypeScript for the
// transaction that reads the open house first (and answers 404 or 409 when it refuses), and as SQL over
// `open_house`'s columns for the one statement that reads and writes at once (decision 061). The pair
// is tested as one: every open house state the one accepts, the other does (door.test.ts).

/** What the door's rules read of an open house. */
export type DoorFacts = Pick<
  OpenHouseRef,
  'listingReAgentId' | 'hostingReAgentId' | 'openHouseCanceledFlag' | 'publishedAt' | 'endsAt'
>

/** Why a guest may not sign in here now, or null: unknown to the public side, canceled, or ended. */
export function doorRefusal(oh: DoorFacts, now = Date.now()): 'unknown' | 'canceled' | 'ended' | null {
  if (!onShow(oh)) return 'unknown'
  if (oh.openHouseCanceledFlag) return 'canceled'
  if (signInClosed(oh.endsAt, now)) return 'ended'
  return null
}

/** The earliest end of an open house still open for sign-in at `now`: the SQL rule's one value. */
export const openSince = (now = Date.now()) => new Date(now - SIGN_IN_AFTER_END_MS)

/** `doorRefusal(…) === null` over `open_house`'s row, `since` being `openSince(now)`. */
export const signInOpenSql = (since: Expression<Date>) => sql<boolean>`(
  (open_house.published_at is not null or open_house.hosting_re_agent_id is not null)
  and not open_house.open_house_canceled_flag
  and (open_house.ends_at is null or open_house.ends_at >= ${since}::timestamptz))`

/** Whose lead a guest at the door is (SPEC §6): `doorAgentId`. */
export const doorAgent = (oh: DoorFacts) =>
  doorAgentId({ listingREAgentId: oh.listingReAgentId, hostingREAgentId: oh.hostingReAgentId })

/** `doorAgent` over `open_house`'s row. */
export const doorAgentSql = sql<number>`coalesce(open_house.hosting_re_agent_id, open_house.listing_re_agent_id)`

/** Whether the guest's box "share my details with the listing agent" means anything: another agent hosts. */
export const sharesWithListingAgent = (oh: DoorFacts) =>
  oh.hostingReAgentId !== null && oh.hostingReAgentId !== oh.listingReAgentId

/** `sharesWithListingAgent` over `open_house`'s row. */
export const sharesWithListingAgentSql = sql<boolean>`coalesce(open_house.hosting_re_agent_id <> open_house.listing_re_agent_id, false)`
