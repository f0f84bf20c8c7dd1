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

export function offerRef(oh: OpenHouseRow) {
  return { openHouseId: oh.id, publishLevel: oh.publishLevel, publishLevelId: oh.publishLevelId }
}
