import { TEAM_PUBLISH_LEVELS } from '@porchlight/shared'
import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import { batched } from '../../lib/batched.ts'
import { createOverviewRepo } from './overview-repo.ts'

// An agent's figures, and a team's, are read from kept rows (migration 202611261200, decision 014):
// `agent_statistics` holds each agent's five counts, `team_statistics` each team's distinct visitors
// (views `*_now`, 202611261300). The open-house counts move in the transaction of the change; the
// visitors are named in `stats_pending` by the change and folded in batches (202612010090, decision
// 049): by the worker every second, and by every read here first, so a figure read counts every change
// committed before it; tests/api/stats-kept.test.ts holds them to a recount from the rows.
// A publish level's figures (`offeredAt`) are still counted at read time: the correlated subqueries
// below, over `open_house oh`, given which open houses are "listed" and which are "hosted".

type Predicate = RawBuilder<boolean>

function countColumns(listed: Predicate, hosted: Predicate) {
  const attendees = sql`open_house_attendee att
    join open_house oh on oh.id = att.open_house_id
    join prospect p on p.id = att.prospect_id`
  return [
    sql<number>`(select count(*) from open_house oh where (${listed}))`.as('totalListedOpenHouses'),
    sql<number>`(select count(*) from open_house oh
      where (${hosted}) and not oh.open_house_canceled_flag)`.as('totalHostedOpenHouses'),
    sql<number>`(select count(*) from open_house oh
      where (${listed}) and oh.open_house_canceled_flag)`.as('totalCanceleddOpenHouses'),
    sql<number>`(select count(distinct att.prospect_id) from ${attendees}
      where (${listed}) or (${hosted}))`.as('totalVisitedProspects'),
    sql<number>`(select count(distinct att.prospect_id) from ${attendees}
      where ((${listed}) or (${hosted})) and p.working_with_re_agent_flag is false)`.as(
      'totalVisitedProspectsWithoutRealtor',
    ),
  ]
}

/** The five figures as kept, read from `agent_statistics` as `alias` (0 for an agent with none yet). */
const keptColumns = (alias: string) => {
  const col = (name: string) => sql`coalesce(${sql.ref(`${alias}.${name}`)}, 0)`
  return sql.join([
    sql`${col('listed_open_houses')} as "totalListedOpenHouses"`,
    sql`${col('hosted_open_houses')} as "totalHostedOpenHouses"`,
    sql`${col('canceled_open_houses')} as "totalCanceleddOpenHouses"`,
    sql`${col('visited_prospects')} as "totalVisitedProspects"`,
    sql`${col('visited_prospects_without_realtor')} as "totalVisitedProspectsWithoutRealtor"`,
  ])
}

interface KeptRow {
  totalListedOpenHouses: number | string
  totalHostedOpenHouses: number | string
  totalCanceleddOpenHouses: number | string
  totalVisitedProspects: number | string
  totalVisitedProspectsWithoutRealtor: number | string
}

const NONE: KeptRow = {
  totalListedOpenHouses: 0,
  totalHostedOpenHouses: 0,
  totalCanceleddOpenHouses: 0,
  totalVisitedProspects: 0,
  totalVisitedProspectsWithoutRealtor: 0,
}

/**
 * Folds the visits named in `stats_pending` into the kept figures (`stats_fold()`, decision 049); one
 * fold runs at a time, and a fold with nothing waiting reads one empty table. Returns the rows folded.
 */
export async function foldStatistics(db: Db): Promise<number> {
  const { rows } = await sql<{ folded: number }>`select stats_fold() as folded`.execute(db)
  return rows[0]?.folded ?? 0
}

const toCounts = <T extends KeptRow>(row: T) => ({
  ...row,
  totalListedOpenHouses: Number(row.totalListedOpenHouses),
  totalHostedOpenHouses: Number(row.totalHostedOpenHouses),
  totalCanceleddOpenHouses: Number(row.totalCanceleddOpenHouses),
  totalVisitedProspects: Number(row.totalVisitedProspects),
  totalVisitedProspectsWithoutRealtor: Number(row.totalVisitedProspectsWithoutRealtor),
})

export function createStatsRepo(db: Db) {
  /**
   * Folds the visits waiting into the kept figures, so that a read counts all that committed before it.
   * Reads asking at once share one fold, and reads asking while one runs share the next (lib/batched.ts):
   * every read still waits for a fold that started after it asked. The dashboards that a 'stats.changed'
   * sends to refetch together pay one fold, not one each behind the fold's lock.
   */
  const fold = batched(async (reads: null[]) => {
    await foldStatistics(db)
    return reads
  })
  return {
    /** The dashboard overview's short-window reads (overview-repo.ts). */
    overview: createOverviewRepo(db),

    /** One row per agent: the open houses it lists, hosts and cancels, and their visitors. */
    async perAgent(agentIds: number[]) {
      if (agentIds.length === 0) return []
      await fold(null)
      const { rows } = await sql<KeptRow & { reAgentId: number; reAgentFullName: string }>`
        select ag.id as "reAgentId", ag.re_agent_first_name || ' ' || ag.re_agent_last_name as "reAgentFullName",
          ${keptColumns('s')}
        from re_agent ag left join agent_statistics_now s on s.re_agent_id = ag.id
        where ag.id in (${sql.join(agentIds)})`.execute(db)
      return rows.map(toCounts)
    },

    /**
     * A team as one: an open house two of its people share counts once, and so does a prospect who
     * visited two of them. An open house has one listing agent and one host, so the open-house counts
     * are the sums of its people's; the distinct visitors are kept per team (`team_statistics`, over
     * the same people as `people`: lead, co-lead, current members who accepted).
     */
    async team(teamId: number, people: number[]) {
      const ids = [...new Set(people)]
      await fold(null)
      const { rows } = await sql<KeptRow>`
        with kept as (
          select coalesce(sum(s.listed_open_houses), 0) as listed,
            coalesce(sum(s.hosted_open_houses), 0) as hosted,
            coalesce(sum(s.canceled_open_houses), 0) as canceled
          from agent_statistics_now s where s.re_agent_id in (${sql.join(ids.length ? ids : [0])})
        )
        select listed as "totalListedOpenHouses", hosted as "totalHostedOpenHouses",
          canceled as "totalCanceleddOpenHouses",
          coalesce(t.visited_prospects, 0) as "totalVisitedProspects",
          coalesce(t.visited_prospects_without_realtor, 0) as "totalVisitedProspectsWithoutRealtor"
        from kept left join team_statistics_now t on t.re_team_id = ${teamId}`.execute(db)
      return toCounts(rows[0] ?? NONE)
    },

    /** The open houses offered at a Market Center (firm license) or at some of the given team ids. */
    async offeredAt(level: { firmLicense?: string; teamIds: number[] }) {
      const levels: Predicate[] = []
      if (level.firmLicense !== undefined) {
        levels.push(sql`(oh.publish_level = 'Market Center' and oh.publish_level_id = ${level.firmLicense})`)
      }
      if (level.teamIds.length > 0) {
        levels.push(sql`(oh.publish_level in (${sql.join([...TEAM_PUBLISH_LEVELS])})
          and oh.publish_level_id in (${sql.join(level.teamIds.map(String))}))`)
      }
      const scope = sql<boolean>`oh.published_at is not null and (${
        levels.length ? sql.join(levels, sql` or `) : sql`false`
      })`
      const hosted = sql<boolean>`${scope} and oh.hosting_re_agent_id is not null`
      const row = await db.selectNoFrom(countColumns(scope, hosted)).executeTakeFirstOrThrow()
      return toCounts(row)
    },
  }
}

export type StatsRepo = ReturnType<typeof createStatsRepo>
