import { OVERVIEW_LIST_LIMIT } from '@porchlight/shared'
import { type ExpressionBuilder, sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Database } from '../../db/types.ts'

// The dashboard overview's reads. Each is one statement over a short window of dates on an index that
// leads with the agent: open_house (listing or hosting agent, scheduled_date), prospect (owner,
// next_follow_up_date), re_team_member (agent), re_agent (firm license, membership status). None of them
// counts over the agent's whole history. Dates are 'YYYY-MM-DD' strings of the agent's calendar.

/** A first-to-last day window, both included. */
export interface DateWindow {
  from: string
  to: string
}

/** The agent's open houses (it lists or hosts them) scheduled within the window. */
function mineWithin(
  eb: ExpressionBuilder<Database & { oh: Database['openHouse'] }, 'oh'>,
  agentId: number,
  window: DateWindow,
) {
  return eb.and([
    eb.or([eb('oh.listingReAgentId', '=', agentId), eb('oh.hostingReAgentId', '=', agentId)]),
    eb('oh.scheduledDate', '>=', window.from),
    eb('oh.scheduledDate', '<=', window.to),
  ])
}

const fullName = (alias: 'la' | 'ha' | 'lead' | 'ag') =>
  sql<string>`${sql.ref(`${alias}.re_agent_first_name`)} || ' ' || ${sql.ref(`${alias}.re_agent_last_name`)}`

const total = sql<number>`count(*) over ()`.as('total')

/** Leads of a week come from open houses dated at most this many days before it (see `leads`). */
const LEADS_OPEN_HOUSE_DAYS_BEFORE = 7

export function createOverviewRepo(db: Db) {
  return {
    /** Not yet ended, soonest first: canceled ones too (their status says so). */
    nextOpenHouses(agentId: number, window: DateWindow) {
      return db
        .selectFrom('openHouse as oh')
        .innerJoin('reProperty as p', 'p.id', 'oh.rePropertyId')
        .innerJoin('reAgent as la', 'la.id', 'oh.listingReAgentId')
        .leftJoin('reAgent as ha', 'ha.id', 'oh.hostingReAgentId')
        .select([
          'oh.id',
          'oh.rePropertyId',
          'oh.scheduledDate',
          'oh.scheduledStartTime',
          'oh.scheduledEndTime',
          'oh.openHouseTimezone',
          'oh.openHouseCanceledFlag',
          'oh.listingReAgentId',
          'oh.hostingReAgentId',
          'p.propertyAddress1',
          'p.propertyAddress2',
          'p.propertyCity',
          'p.propertyState',
          'p.propertyZipCode',
          'p.propertyZipPlus4',
          'p.propertyCountry',
          fullName('la').as('listingFullName'),
          sql<string | null>`${fullName('ha')}`.as('hostingFullName'),
          total,
        ])
        .where((eb) => mineWithin(eb, agentId, window))
        .where((eb) => eb.or([eb('oh.endsAt', 'is', null), eb('oh.endsAt', '>', sql<Date>`now()`)]))
        .orderBy('oh.scheduledDate')
        .orderBy(sql`oh.starts_at nulls last`)
        .orderBy('oh.id')
        .limit(OVERVIEW_LIST_LIMIT)
        .execute()
    },

    /**
     * Distinct guests who signed in (or were added) at the agent's open houses on the days of the window
     * in the agent's time zone, and those who said they work without a realtor. Counted by the moment
     * of the visit, not the open house's date (decision 038): a guest added yesterday to last week's
     * open house is this week's lead. A guest signs in up to a day after its open house ends
     * (SIGN_IN_AFTER_END_MS), so only open houses dated from a week before the window on (or undated)
     * can have visits in it, save an agent's add more than a week late: the read stays on the agent's
     * recent open houses (indexes on listing and hosting agent with the date), not its whole history.
     */
    async leads(agentId: number, window: DateWindow, timeZone: string) {
      const from = sql<Date>`(${window.from}::date)::timestamp at time zone ${timeZone}`
      const until = sql<Date>`(${window.to}::date + 1)::timestamp at time zone ${timeZone}`
      const earliestDate = sql<string>`${window.from}::date - ${LEADS_OPEN_HOUSE_DAYS_BEFORE}::int`
      const row = await db
        .selectFrom('openHouse as oh')
        .innerJoin('openHouseAttendee as att', 'att.openHouseId', 'oh.id')
        .innerJoin('prospect as pr', 'pr.id', 'att.prospectId')
        .select([
          sql<number>`count(distinct att.prospect_id)`.as('total'),
          sql<number>`count(distinct att.prospect_id) filter (where pr.working_with_re_agent_flag is false)`.as(
            'withoutRealtor',
          ),
        ])
        .where((eb) =>
          eb.or([eb('oh.listingReAgentId', '=', agentId), eb('oh.hostingReAgentId', '=', agentId)]),
        )
        .where((eb) =>
          eb.or([eb('oh.scheduledDate', '>=', earliestDate), eb('oh.scheduledDate', 'is', null)]),
        )
        .where('att.createdDate', '>=', from)
        .where('att.createdDate', '<', until)
        .executeTakeFirstOrThrow()
      return { total: Number(row.total), withoutRealtor: Number(row.withoutRealtor) }
    },

    /**
     * Feedback on the agent's open houses of the window, by week: `week` 0 is the 7 days ending on
     * `window.to`, 1 the 7 before, and so on. Weeks without feedback are absent.
     */
    async feedbackByWeek(agentId: number, window: DateWindow) {
      const week = sql<number>`(${window.to}::date - oh.scheduled_date) / 7`
      const rows = await db
        .selectFrom('openHouse as oh')
        .innerJoin('openHouseFeedback as fb', 'fb.openHouseId', 'oh.id')
        .select([
          week.as('week'),
          sql<number>`count(*)`.as('count'),
          sql<number | null>`round(avg(fb.overall_experience))::int`.as('average'),
        ])
        .where((eb) => mineWithin(eb, agentId, window))
        .groupBy(sql`1`)
        .execute()
      return rows.map((r) => ({ week: Number(r.week), count: Number(r.count), average: r.average }))
    },

    /** Teams inviting the agent that it has not answered. */
    teamInvitations(agentId: number) {
      return db
        .selectFrom('reTeamMember as m')
        .innerJoin('reTeam as t', 't.id', 'm.reTeamId')
        .innerJoin('reAgent as lead', 'lead.id', 't.reTeamLeadId')
        .select(['t.id as reTeamId', 't.reTeamName', 't.teamType', fullName('lead').as('reTeamLeadFullName')])
        .where('m.reAgentId', '=', agentId)
        .where('m.invitationStatus', '=', 'invited')
        .orderBy('m.createdDate')
        .orderBy('t.id')
        .execute()
    },

    /** Agents of the firm license waiting for a decision on their membership, oldest request first. */
    pendingFirmMembers(firmLicense: string, exceptId: number) {
      return db
        .selectFrom('reAgent as ag')
        .select(['ag.id as reAgentId', fullName('ag').as('reAgentFullName'), 'ag.createdDate', total])
        .where('ag.reAgentBrokerFirmLicense', '=', firmLicense)
        .where('ag.firmMembershipStatus', '=', 'pending')
        .where('ag.id', '<>', exceptId)
        .orderBy('ag.createdDate')
        .orderBy('ag.id')
        .limit(OVERVIEW_LIST_LIMIT)
        .execute()
    },

    /** The agent's prospects with a follow-up on or before `until` (overdue ones included), soonest first. */
    followUpsDue(agentId: number, until: string) {
      return db
        .selectFrom('prospect as pr')
        .select([
          'pr.id',
          'pr.prospectFirstName',
          'pr.prospectLastName',
          'pr.prospectStage',
          'pr.nextFollowUpDate',
          total,
        ])
        .where('pr.createdByReAgentId', '=', agentId)
        .where('pr.nextFollowUpDate', 'is not', null)
        .where('pr.nextFollowUpDate', '<=', until)
        .orderBy('pr.nextFollowUpDate')
        .orderBy('pr.id')
        .limit(OVERVIEW_LIST_LIMIT)
        .execute()
    },
  }
}

export type OverviewRepo = ReturnType<typeof createOverviewRepo>
