// Query keys other features refresh (a team change, a live event), apart from the queries themselves so
// that a feature may invalidate another's cache without importing it.

/**
 * The dashboard's queries all sit under this key: whatever makes the statistics stale (a socket
 * event, an answered team invitation) refreshes the overview too.
 */
export const dashboardStatisticsKey = (agentId: number) => ['dashboardStatistics', agentId] as const

/** The overview alone (an edited open house moves in its week but changes no statistic). */
export const dashboardOverviewKey = (agentId: number) =>
  [...dashboardStatisticsKey(agentId), 'overview'] as const
