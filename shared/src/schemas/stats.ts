import { z } from 'zod'

// Open-house statistics (SPEC §3 "Statistics summary"), counted from rows by SQL, never kept counters.
// 'totalCanceleddOpenHouses' is spelt so in the SPEC.

const counts = {
  /** open houses the agent lists (canceled ones included) */
  totalListedOpenHouses: z.number().int(),
  /** open houses the agent hosts, not canceled */
  totalHostedOpenHouses: z.number().int(),
  /** the agent's canceled listings */
  totalCanceleddOpenHouses: z.number().int(),
  /** distinct prospects who signed in at an open house the agent lists or hosts */
  totalVisitedProspects: z.number().int(),
  /** those of them not working with a real estate agent */
  totalVisitedProspectsWithoutRealtor: z.number().int(),
}

export const StatisticsCounts = z.object(counts)
export type StatisticsCounts = z.infer<typeof StatisticsCounts>

export const StatisticsSummary = z.object({
  ...counts,
  reAgentFullName: z.string(),
  reAgentId: z.number().int(),
})
export type StatisticsSummary = z.infer<typeof StatisticsSummary>

/** One team of the dashboard's My Team Summary: a row per person of the team, lead first. */
export const TeamStatistics = z.object({
  reTeamId: z.number().int(),
  reTeamName: z.string(),
  members: z.array(StatisticsSummary),
})
export type TeamStatistics = z.infer<typeof TeamStatistics>

/** getDashboardStatistics: teamSummaries is empty unless the agent is a Team Lead. */
export const DashboardStatistics = z.object({
  overall: StatisticsSummary,
  teamSummaries: z.array(TeamStatistics),
})
export type DashboardStatistics = z.infer<typeof DashboardStatistics>

/** getRETeamSummary: the team as a whole; an open house two of its people share counts once. */
export const TeamStatisticsTotals = z.object({
  ...counts,
  reTeamId: z.number().int(),
  reTeamName: z.string(),
})
export type TeamStatisticsTotals = z.infer<typeof TeamStatisticsTotals>

/** getOHStatisticsSummaryByPublishLevelId: the open houses offered at one firm or team level. */
export const PublishLevelStatistics = z.object({
  ...counts,
  publishLevelId: z.string(),
})
export type PublishLevelStatistics = z.infer<typeof PublishLevelStatistics>

/** The dashboard table's columns, in order, with SPEC §2's headings. */
export const STATISTICS_COLUMNS = [
  { key: 'totalListedOpenHouses', label: 'Listed/Requested' },
  { key: 'totalHostedOpenHouses', label: 'Hosted/Claimed' },
  { key: 'totalCanceleddOpenHouses', label: 'Canceled' },
  { key: 'totalVisitedProspects', label: 'Total Leads' },
  { key: 'totalVisitedProspectsWithoutRealtor', label: 'Leads Without Realtor' },
] as const satisfies ReadonlyArray<{ key: keyof StatisticsCounts; label: string }>
