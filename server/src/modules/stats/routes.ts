import {
  DashboardOverview,
  DashboardOverviewQuery,
  DashboardStatistics,
  PublishLevelStatistics,
  StatisticsSummary,
  TeamStatisticsTotals,
} from '@porchlight/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { agentOf } from '../../http/auth.ts'
import { AgentParams, data, PositiveId, security } from '../../http/schemas.ts'
import { requireSelf } from '../../policy/require-self.ts'

const TeamParams = z.object({ teamId: PositiveId })
const tags = ['statistics']

export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { stats } = app.deps
  const guard = { preHandler: app.requireLicensedAgent }
  const ownGuard = {
    preHandler: [app.requireLicensedAgent, requireSelf('agentId', 'You can only see your own statistics')],
  }

  app.get(
    '/openhousemgmt/getOHStatisticsSummaryByREAgentId/:agentId',
    {
      schema: { tags, security, params: AgentParams, response: { 200: data(StatisticsSummary) } },
      ...ownGuard,
    },
    async (req) => ({ data: await stats.byAgent(agentOf(req)) }),
  )

  app.get(
    '/openhousemgmt/getDashboardStatistics/:agentId',
    {
      schema: { tags, security, params: AgentParams, response: { 200: data(DashboardStatistics) } },
      ...ownGuard,
    },
    async (req) => ({ data: await stats.dashboard(agentOf(req)) }),
  )

  app.get(
    '/openhousemgmt/getDashboardOverview/:agentId',
    {
      schema: {
        tags,
        security,
        params: AgentParams,
        querystring: DashboardOverviewQuery,
        response: { 200: data(DashboardOverview) },
      },
      ...ownGuard,
    },
    async (req) => ({ data: await stats.dashboardOverview(agentOf(req), req.query.timeZone) }),
  )

  app.get(
    '/openhousemgmt/getOHStatisticsSummaryByPublishLevelId/:publishLevelId',
    {
      schema: {
        tags,
        security,
        params: z.object({ publishLevelId: z.string().trim().min(1).max(40) }),
        response: { 200: data(PublishLevelStatistics) },
      },
      ...guard,
    },
    async (req) => ({ data: await stats.byPublishLevelId(agentOf(req), req.params.publishLevelId) }),
  )

  // The same per-person rows under both names the SPEC uses.
  for (const path of [
    '/openhousemgmt/getOHStatisticsSummaryByTeamMembers',
    '/reteammgmt/getRETeamMemberSummary',
  ]) {
    app.get(
      `${path}/:teamId`,
      {
        schema: { tags, security, params: TeamParams, response: { 200: data(z.array(StatisticsSummary)) } },
        ...guard,
      },
      async (req) => ({ data: await stats.byTeamMembers(agentOf(req), req.params.teamId) }),
    )
  }

  app.get(
    '/reteammgmt/getRETeamSummary/:teamId',
    {
      schema: { tags, security, params: TeamParams, response: { 200: data(TeamStatisticsTotals) } },
      ...guard,
    },
    async (req) => ({ data: await stats.teamTotals(agentOf(req), req.params.teamId) }),
  )
}
