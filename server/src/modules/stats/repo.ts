import { TEAM_PUBLISH_LEVELS } from '@porchlight/shared'
import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import { createOverviewRepo } from './overview-repo.ts'

// Every figure is counted from rows at read time (never a kept counter), so it cannot drift.
// The five counts are correlated subqueries over `open_house oh`, given two predicates on `oh`:
// which open houses are "listed" and which are "hosted" by whoever the figures are for.

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
      where ((${listed}) or (${hosted})) and not p.working_with_re_agent_flag)`.as(
      'totalVisitedProspectsWithoutRealtor',
    ),
  ]
}

const toCounts = <T extends Record<string, unknown>>(row: T) => ({
  ...row,
  totalListedOpenHouses: Number(row.totalListedOpenHouses),
  totalHostedOpenHouses: Number(row.totalHostedOpenHouses),
  totalCanceleddOpenHouses: Number(row.totalCanceleddOpenHouses),
  totalVisitedProspects: Number(row.totalVisitedProspects),
  totalVisitedProspectsWithoutRealtor: Number(row.totalVisitedProspectsWithoutRealtor),
})

export function createStatsRepo(db: Db) {
  return {
    /** The dashboard overview's short-window reads (overview-repo.ts). */
    overview: createOverviewRepo(db),

    /** One row per agent: the open houses it lists, hosts and cancels, and their visitors. */
    async perAgent(agentIds: number[]) {
      if (agentIds.length === 0) return []
      const rows = await db
        .selectFrom('reAgent as ag')
        .select([
          'ag.id as reAgentId',
          sql<string>`ag.re_agent_first_name || ' ' || ag.re_agent_last_name`.as('reAgentFullName'),
          ...countColumns(sql`oh.listing_re_agent_id = ag.id`, sql`oh.hosting_re_agent_id = ag.id`),
        ])
        .where('ag.id', 'in', agentIds)
        .execute()
      return rows.map(toCounts)
    },

    /** A group of agents as one: an open house two of them share counts once. */
    async together(agentIds: number[]) {
      const ids = sql.join(agentIds.length ? agentIds : [0])
      const row = await db
        .selectNoFrom(
          countColumns(sql`oh.listing_re_agent_id in (${ids})`, sql`oh.hosting_re_agent_id in (${ids})`),
        )
        .executeTakeFirstOrThrow()
      return toCounts(row)
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
