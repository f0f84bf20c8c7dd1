import { createFileRoute, redirect } from '@tanstack/react-router'
import { DashboardPage } from '../../../../features/dashboard/dashboard-page.tsx'
import {
  dashboardOverviewQueryOptions,
  dashboardStatisticsQueryOptions,
} from '../../../../features/dashboard/queries.ts'
import { DashboardSearch } from '../../../../features/dashboard/search.ts'
import { planUtilizationQueryOptions } from '../../../../features/pricing/queries.ts'
import { requireAgent } from '../../../../features/session/queries.ts'
import { agentTeamsQueryOptions } from '../../../../features/teams/queries.ts'

export const Route = createFileRoute('/_agent/_licensed/dashboard/')({
  validateSearch: DashboardSearch,
  beforeLoad: ({ context }) => {
    const agent = requireAgent(context.session)
    // SPEC §4: an agent without a plan in force is sent to choose one.
    if (!context.session.activePlan)
      throw redirect({ to: '/pricingplanexpired', search: { reAgentId: agent.id } })
    return { agent }
  },
  // The licensed plan call also answers 403 LICENSE_INVALID if the license lapsed since sign-in. The
  // overview, statistics and teams start loading here but are not awaited: their sections show their own spinners.
  loader: ({ context: { queryClient, agent } }) => {
    void queryClient.prefetchQuery(dashboardOverviewQueryOptions(agent.id))
    void queryClient.prefetchQuery(dashboardStatisticsQueryOptions(agent.id))
    void queryClient.prefetchQuery(agentTeamsQueryOptions(agent.id))
    return queryClient.ensureQueryData(planUtilizationQueryOptions(agent.id))
  },
  component: DashboardPage,
})
