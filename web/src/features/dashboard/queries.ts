import { DashboardStatistics } from '@porchlight/shared'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '../../api/client.ts'

export const dashboardStatisticsKey = (agentId: number) => ['dashboardStatistics', agentId] as const

/** The dashboard's Overall Open House Summary and, for a Team Lead, a row per person of each team. */
export function dashboardStatisticsQueryOptions(agentId: number) {
  return queryOptions({
    queryKey: dashboardStatisticsKey(agentId),
    queryFn: ({ signal }) =>
      apiRequest(`/openhousemgmt/getDashboardStatistics/${agentId}`, { schema: DashboardStatistics, signal }),
  })
}
