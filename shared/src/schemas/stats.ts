import { z } from 'zod'
import { isValidTimeZone } from '../rules/time-zones.ts'

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

// ---------------------------------------------------------------------------------------------------
// The dashboard overview (issue 13): what is next and who came, counted over short, indexed windows
// ending or starting on the agent's today — never over all history.

/** How many days "this week" spans: today and the 6 days after it (open houses), or before it (leads). */
export const OVERVIEW_WEEK_DAYS = 7
/** How many weeks the feedback trend covers, this week included. */
export const FEEDBACK_TREND_WEEKS = 6
/** How far ahead "follow-ups due" looks; anything earlier (overdue) is due too. */
export const FOLLOW_UP_DAYS_AHEAD = 7
/** At most this many items of a list come with the overview; `total` says how many there are. */
export const OVERVIEW_LIST_LIMIT = 10

/** getDashboardOverview's query: the agent's IANA time zone says which day "today" is (default UTC). */
export const DashboardOverviewQuery = z.object({
  timeZone: z.string().max(64).default('UTC').refine(isValidTimeZone, { error: 'Unknown time zone' }),
})
export type DashboardOverviewQuery = z.input<typeof DashboardOverviewQuery>

/** An open house of the agent (it lists it or hosts it) in the coming week, with SPEC §4's status. */
export const OverviewOpenHouse = z.object({
  id: z.number().int(),
  rePropertyId: z.number().int(),
  completePropertyAddress: z.string(),
  scheduledDate: z.string(),
  scheduledStartTime: z.string(),
  scheduledEndTime: z.string(),
  openHouseTimezone: z.string(),
  status: z.enum(['Canceled', 'Hosted', 'Not Hosted']),
  listingREAgentId: z.number().int(),
  listingREAgentFullName: z.string(),
  hostingREAgentId: z.number().int().nullable(),
  /** null while nobody hosts it */
  hostingREAgentFullName: z.string().nullable(),
})
export type OverviewOpenHouse = z.infer<typeof OverviewOpenHouse>

/** Feedback given on the agent's open houses of one week (oldest week first in the trend). */
export const FeedbackWeek = z.object({
  /** first and last day of the week, 'YYYY-MM-DD'; the last week ends today */
  weekStart: z.string(),
  weekEnd: z.string(),
  count: z.number().int(),
  /** the average Overall Experience rating, rounded (SPEC §9); null when nobody rated it */
  averageOverallExperience: z.number().int().nullable(),
})
export type FeedbackWeek = z.infer<typeof FeedbackWeek>

export const OverviewTeamInvitation = z.object({
  reTeamId: z.number().int(),
  reTeamName: z.string(),
  teamType: z.string(),
  reTeamLeadFullName: z.string(),
})
export type OverviewTeamInvitation = z.infer<typeof OverviewTeamInvitation>

export const OverviewFirmRequest = z.object({
  reAgentId: z.number().int(),
  reAgentFullName: z.string(),
  /** when it asked to join, ISO timestamp */
  requestedAt: z.string(),
})
export type OverviewFirmRequest = z.infer<typeof OverviewFirmRequest>

export const OverviewFollowUp = z.object({
  prospectId: z.number().int(),
  prospectFullName: z.string(),
  nextFollowUpDate: z.string(),
  prospectStage: z.string(),
  /** the date is before today */
  overdue: z.boolean(),
})
export type OverviewFollowUp = z.infer<typeof OverviewFollowUp>

const list = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int() })

/** getDashboardOverview: the agent's own week at a glance. */
export const DashboardOverview = z.object({
  /** the agent's today, 'YYYY-MM-DD', in the time zone asked for */
  today: z.string(),
  /** today and the next 6 days, soonest first, not yet ended */
  nextOpenHouses: list(OverviewOpenHouse),
  /** distinct guests at its open houses of the last 7 days (today included) */
  leadsThisWeek: z.object({
    from: z.string(),
    to: z.string(),
    total: z.number().int(),
    withoutRealtor: z.number().int(),
  }),
  feedbackTrend: z.array(FeedbackWeek),
  pendingRequests: z.object({
    /** teams inviting the agent, not answered yet */
    teamInvitations: z.array(OverviewTeamInvitation),
    /** agents asking to join its firm; only for a verified Team Lead or Admin Team Member, else null */
    firmMembers: list(OverviewFirmRequest).nullable(),
  }),
  /** its prospects whose next follow-up is overdue or within the next 7 days, soonest first */
  followUpsDue: list(OverviewFollowUp),
})
export type DashboardOverview = z.infer<typeof DashboardOverview>
