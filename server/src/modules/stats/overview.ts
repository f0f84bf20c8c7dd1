import {
  addDays,
  completeAddress,
  type DashboardOverview,
  FEEDBACK_TREND_WEEKS,
  type FeedbackWeek,
  FOLLOW_UP_DAYS_AHEAD,
  mayDecideFirmMembership,
  OVERVIEW_WEEK_DAYS,
  openHouseStatus,
  todayIn,
} from '@porchlight/shared'
import type { AgentRow } from '../../db/rows.ts'
import type { Access } from '../../policy/access.ts'
import type { OverviewRepo } from './overview-repo.ts'

export interface OverviewDeps {
  overview: OverviewRepo
  access: Access
}

const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : value)

/** Six weeks, oldest first, each 7 days, the last ending today; a week without feedback counts 0. */
export function feedbackTrend(
  today: string,
  byWeek: Array<{ week: number; count: number; average: number | null }>,
): FeedbackWeek[] {
  const found = new Map(byWeek.map((w) => [w.week, w]))
  return Array.from({ length: FEEDBACK_TREND_WEEKS }, (_, i) => {
    const week = FEEDBACK_TREND_WEEKS - 1 - i
    const weekEnd = addDays(today, -OVERVIEW_WEEK_DAYS * week)
    return {
      weekStart: addDays(weekEnd, -(OVERVIEW_WEEK_DAYS - 1)),
      weekEnd,
      count: found.get(week)?.count ?? 0,
      averageOverallExperience: found.get(week)?.average ?? null,
    }
  })
}

/**
 * The dashboard's "what's next and who came" for the agent itself (the caller's own id, checked by the
 * stats service): the open houses of the coming week, last week's guests, six weeks of feedback, what
 * waits for its answer, and its follow-ups due. The reads run side by side, each on its own window.
 */
export function createOverview(d: OverviewDeps) {
  const repo = d.overview

  async function pendingFirmMembers(caller: AgentRow) {
    // A verified Team Lead or Admin Team Member of the firm decides on these (the policy's rule).
    if (!mayDecideFirmMembership(await d.access.actor(caller))) return null
    const rows = await repo.pendingFirmMembers(caller.reAgentBrokerFirmLicense, caller.id)
    return {
      items: rows.map((r) => ({
        reAgentId: r.reAgentId,
        reAgentFullName: r.reAgentFullName,
        requestedAt: iso(r.createdDate),
      })),
      total: Number(rows[0]?.total ?? 0),
    }
  }

  return async function overview(caller: AgentRow, timeZone: string): Promise<DashboardOverview> {
    const agentId = caller.id
    const today = todayIn(timeZone)
    const lastWeek = { from: addDays(today, -(OVERVIEW_WEEK_DAYS - 1)), to: today }
    const [upcoming, leads, byWeek, invitations, firmMembers, followUps] = await Promise.all([
      repo.nextOpenHouses(agentId, { from: today, to: addDays(today, OVERVIEW_WEEK_DAYS - 1) }),
      repo.leads(agentId, lastWeek, timeZone),
      repo.feedbackByWeek(agentId, {
        from: addDays(today, -(OVERVIEW_WEEK_DAYS * FEEDBACK_TREND_WEEKS - 1)),
        to: today,
      }),
      repo.teamInvitations(agentId),
      pendingFirmMembers(caller),
      repo.followUpsDue(agentId, addDays(today, FOLLOW_UP_DAYS_AHEAD)),
    ])

    return {
      today,
      nextOpenHouses: {
        items: upcoming.map((oh) => ({
          id: oh.id,
          rePropertyId: oh.rePropertyId,
          completePropertyAddress: completeAddress(oh),
          scheduledDate: oh.scheduledDate ?? today,
          scheduledStartTime: oh.scheduledStartTime,
          scheduledEndTime: oh.scheduledEndTime,
          openHouseTimezone: oh.openHouseTimezone,
          // Within a window of dates, never 'Pick your own date'.
          status: openHouseStatus({
            openHouseCanceledFlag: oh.openHouseCanceledFlag,
            hostingREAgentId: oh.hostingReAgentId,
            scheduledDate: oh.scheduledDate,
          }) as 'Canceled' | 'Hosted' | 'Not Hosted',
          listingREAgentId: oh.listingReAgentId,
          listingREAgentFullName: oh.listingFullName,
          hostingREAgentId: oh.hostingReAgentId,
          hostingREAgentFullName: oh.hostingFullName,
        })),
        total: Number(upcoming[0]?.total ?? 0),
      },
      leadsThisWeek: { ...lastWeek, ...leads },
      feedbackTrend: feedbackTrend(today, byWeek),
      pendingRequests: { teamInvitations: invitations, firmMembers },
      followUpsDue: {
        items: followUps.map((p) => ({
          prospectId: p.id,
          prospectFullName: `${p.prospectFirstName} ${p.prospectLastName}`,
          nextFollowUpDate: p.nextFollowUpDate ?? today,
          prospectStage: p.prospectStage,
          overdue: (p.nextFollowUpDate ?? today) < today,
        })),
        total: Number(followUps[0]?.total ?? 0),
      },
    }
  }
}
