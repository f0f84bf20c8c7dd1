import {
  canSeeTeamSummary,
  type DashboardOverview,
  type DashboardStatistics,
  type PublishLevelStatistics,
  type StatisticsSummary,
  type TeamStatistics,
  type TeamStatisticsTotals,
} from '@porchlight/shared'
import type { AgentRow } from '../../db/rows.ts'
import { NotFoundError } from '../../errors.ts'
import type { Access } from '../../policy/access.ts'
import type { TeamPeople, TeamService } from '../teams/service.ts'
import { createOverview } from './overview.ts'
import type { StatsRepo } from './repo.ts'

export interface StatsDeps {
  repo: StatsRepo
  access: Access
  teams: TeamService
}

export function createStatsService(d: StatsDeps) {
  const { repo } = d
  const overview = createOverview({ overview: repo.overview, access: d.access })

  /** Per-agent rows in the order of `ids`. */
  async function summaries(ids: number[]): Promise<StatisticsSummary[]> {
    const rows = await repo.perAgent(ids)
    const byId = new Map(rows.map((r) => [r.reAgentId, r]))
    return ids.flatMap((id) => byId.get(id) ?? [])
  }

  async function summaryOf(agentId: number): Promise<StatisticsSummary> {
    const [row] = await summaries([agentId])
    if (!row) throw new NotFoundError()
    return row
  }

  async function teamStatistics(team: TeamPeople): Promise<TeamStatistics> {
    return { reTeamId: team.id, reTeamName: team.reTeamName, members: await summaries(team.people) }
  }

  return {
    async byAgent(caller: AgentRow): Promise<StatisticsSummary> {
      return summaryOf(caller.id)
    },

    /** Overall, plus (Team Lead role only) a table per team the agent leads or co-leads. */
    async dashboard(caller: AgentRow): Promise<DashboardStatistics> {
      const teams = canSeeTeamSummary(caller.reAgentRole) ? await d.teams.ledBy(caller.id) : []
      const [overall, teamSummaries] = await Promise.all([
        summaryOf(caller.id),
        Promise.all(teams.map(teamStatistics)),
      ])
      return { overall, teamSummaries }
    },

    /** The dashboard's week at a glance (overview.ts), the agent's own; `timeZone` says which day is today. */
    async dashboardOverview(caller: AgentRow, timeZone: string): Promise<DashboardOverview> {
      return overview(caller, timeZone)
    },

    /** A row per person of the team (lead, co-lead, members); for the team's own people. */
    async byTeamMembers(caller: AgentRow, teamId: number): Promise<StatisticsSummary[]> {
      return summaries((await d.teams.people(caller, teamId)).people)
    },

    async teamTotals(caller: AgentRow, teamId: number): Promise<TeamStatisticsTotals> {
      const team = await d.teams.people(caller, teamId)
      return { reTeamId: team.id, reTeamName: team.reTeamName, ...(await repo.team(team.id, team.people)) }
    },

    /** The caller's verified firm license (Market Center) or a team the caller belongs to. */
    async byPublishLevelId(caller: AgentRow, publishLevelId: string): Promise<PublishLevelStatistics> {
      const actor = await d.access.actor(caller)
      const firm = actor.firmVerified && publishLevelId === actor.firmLicense
      const teamIds = actor.teamIds.filter((id) => String(id) === publishLevelId)
      if (!firm && teamIds.length === 0) {
        throw new NotFoundError()
      }
      const counts = await repo.offeredAt({ firmLicense: firm ? publishLevelId : undefined, teamIds })
      return { publishLevelId, ...counts }
    },
  }
}

export type StatsService = ReturnType<typeof createStatsService>
