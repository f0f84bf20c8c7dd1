import type { QueryKey } from '@tanstack/react-query'
import { dashboardOverviewKey, dashboardStatisticsKey } from '../api/query-keys.ts'
import { showArrival, showFeedback } from '../features/attendees/live-updates.ts'
import {
  highlightOffered,
  showCanceled,
  showClaim,
  showUpdated,
  showWithdrawn,
} from '../features/open-houses/live-updates.ts'
import { openHouseKeys } from '../features/open-houses/queries.ts'
import { planUtilizationQueryOptions } from '../features/pricing/queries.ts'
import { prospectKeys } from '../features/prospects/queries.ts'
import { teamKeys } from '../features/teams/keys.ts'
import type { LiveWiring } from '../live/bridge.ts'
import type { LiveTable } from '../live/types.ts'

/** The empty prefix: every query. */
const EVERYTHING: QueryKey = []

const lists = (...names: Array<'upcoming' | 'available' | 'past'>) => names.map(openHouseKeys.lists)

/**
 * Every socket event the agent app listens to (shared/src/events.ts) and what it does to the query
 * cache: the keys it makes stale (mounted queries refetch, coalesced per key) and the change it
 * applies at once. An event missing here is not listened to. After a reconnect the bridge refetches
 * every mounted query instead (web/src/live/bridge.ts).
 *
 * The claim, withdrawal and cancel events refresh the dashboard statistics too: a Team Lead's team
 * rows move when a member's open house changes hands, which the server announces to the team room
 * but not as 'stats.changed' to the lead.
 */
export const liveEvents: LiveTable = {
  'opportunity.published': {
    invalidates: () => lists('available', 'upcoming'),
    update: ({ data }, live) => void highlightOffered(live, data.openHouseId, 'New open house to host'),
  },
  'opportunity.claimed': {
    invalidates: ({ data }, agentId) => [
      openHouseKeys.details(data.openHouseId),
      ...lists('upcoming'),
      dashboardStatisticsKey(agentId),
    ],
    // 'Hosted' on the listing side; 'Claimed by …' for 5 s in Search Open Houses, then it leaves.
    update: ({ data }, live) => showClaim(live, data),
  },
  'opportunity.withdrawn': {
    invalidates: ({ data }, agentId) => [
      openHouseKeys.details(data.openHouseId),
      ...lists('available', 'upcoming'),
      dashboardStatisticsKey(agentId),
    ],
    update: ({ data }, live) => void showWithdrawn(live, data),
  },
  'openHouse.updated': {
    // The dashboard's open houses of the week show its date and time.
    invalidates: ({ data }, agentId) => [
      openHouseKeys.details(data.openHouseId),
      ...lists('upcoming', 'available', 'past'),
      dashboardOverviewKey(agentId),
    ],
    update: ({ data }, live) => showUpdated(live, data),
  },
  'openHouse.canceled': {
    invalidates: ({ data }, agentId) => [
      openHouseKeys.details(data.openHouseId),
      ...lists('upcoming', 'available'),
      dashboardStatisticsKey(agentId),
    ],
    update: ({ data }, live) => showCanceled(live, data),
  },
  // Reaches the agent only in a watched open house room (the host's board).
  'attendee.added': {
    invalidates: ({ data }) => [prospectKeys.attendees(data.openHouseId)],
    update: ({ data }, live) => showArrival(live, data),
  },
  'feedback.submitted': {
    invalidates: ({ data }) => [prospectKeys.feedback(data.openHouseId)],
    update: ({ data }, live) => showFeedback(live, data),
  },
  'stats.changed': {
    invalidates: ({ data }, agentId) => [
      dashboardStatisticsKey(agentId),
      planUtilizationQueryOptions(agentId).queryKey,
      ...(data.reTeamId === undefined ? [] : [teamKeys.all]),
    ],
  },
  // 'report.requested' is not listened to: the request arrives by mail; no screen shows it.
  // The server lost events from its peers (Redis away): refetch what is on screen.
  'sync.required': { invalidates: () => [EVERYTHING] },
}

/**
 * What a watched open house room's events touch (the host's board): refetched once the room is
 * joined, since what happened before that was not heard.
 */
export const watchedRoomKeys = (openHouseId: number): QueryKey[] => [
  prospectKeys.attendees(openHouseId),
  prospectKeys.feedback(openHouseId),
]

/** What the bridge is handed by the layout (a constant, so the bridge starts once). */
export const liveWiring: LiveWiring = { events: liveEvents, watchedRoomKeys }
