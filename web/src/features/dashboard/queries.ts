import { DashboardOverview, DashboardStatistics } from '@porchlight/shared'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '../../api/client.ts'
import { dashboardOverviewKey, dashboardStatisticsKey } from '../../api/query-keys.ts'
import { paced } from './live-changes.ts'

/** The dashboard's Overall Open House Summary and, for a Team Lead, a row per person of each team. */
export function dashboardStatisticsQueryOptions(agentId: number) {
  return queryOptions({
    queryKey: dashboardStatisticsKey(agentId),
    queryFn: paced(({ signal }) =>
      apiRequest(`/openhousemgmt/getDashboardStatistics/${agentId}`, { schema: DashboardStatistics, signal }),
    ),
  })
}

/** The browser's time zone: which day "today" is for the agent. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/** The week at a glance: next open houses, this week's leads, feedback trend, requests, follow-ups due. */
export function dashboardOverviewQueryOptions(agentId: number) {
  return queryOptions({
    queryKey: dashboardOverviewKey(agentId),
    queryFn: paced(({ signal }) =>
      apiRequest(
        `/openhousemgmt/getDashboardOverview/${agentId}?timeZone=${encodeURIComponent(timeZone())}`,
        { schema: DashboardOverview, signal },
      ),
    ),
  })
}
