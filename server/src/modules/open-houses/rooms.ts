import { isTeamLevel, rooms } from '@porchlight/shared'
import type { OpenHouseRow } from './repo.ts'

/** The room of the agents an open house is offered to; none for Hosting Myself. */
export function offerRoom(oh: { publishLevel: string; publishLevelId: string }): string | null {
  if (oh.publishLevel === 'Open To All') return rooms.marketAll
  if (oh.publishLevel === 'Market Center') return rooms.marketFirm(oh.publishLevelId)
  if (isTeamLevel(oh.publishLevel)) return rooms.team(Number(oh.publishLevelId))
  return null
}

/** The listing agent's room, and its scheduler's: both keep the open house in their lists. */
export function agentRooms(oh: { listingReAgentId: number; scheduledByReAgentId: number }): string[] {
  const listing = rooms.agent(oh.listingReAgentId)
  return oh.scheduledByReAgentId === oh.listingReAgentId
    ? [listing]
    : [listing, rooms.agent(oh.scheduledByReAgentId)]
}

interface Seen {
  id: number
  listingReAgentId: number
  scheduledByReAgentId: number
  hostingReAgentId: number | null
  publishLevel: string
  publishLevelId: string
  publishedAt: Date | null
}

/**
 * Every room with a screen that may show the open house: its own (a board or manage page), the listing
 * agent's and its scheduler's, the host's, and the agents it is offered to while published. Given the
 * open house before and after a change, the rooms of both, once each: an agent who lost sight of it
 * (a released host, the team it was offered to before) hears the change as well.
 */
export function viewerRooms(...states: Seen[]): string[] {
  const to = new Set<string>()
  for (const oh of states) {
    to.add(rooms.openHouse(oh.id))
    for (const room of agentRooms(oh)) to.add(room)
    if (oh.hostingReAgentId !== null) to.add(rooms.agent(oh.hostingReAgentId))
    const offered = oh.publishedAt === null ? null : offerRoom(oh)
    if (offered) to.add(offered)
  }
  return [...to]
}

export function offerRef(oh: Pick<OpenHouseRow, 'id' | 'publishLevel' | 'publishLevelId'>) {
  return { openHouseId: oh.id, publishLevel: oh.publishLevel, publishLevelId: oh.publishLevelId }
}
