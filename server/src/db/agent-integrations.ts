import { type RawBuilder, sql } from 'kysely'

/** One integration an agent has switched on: an endpoint (own, or its team's), or Follow Up Boss (id null). */
export interface IntegrationRow {
  id: number | null
  reAgentId: number
  events: string[] | null
  teamId: number | null
}

/**
 * The integrations of the agents in `agentIds` (an expression of type bigint[]): each agent's own enabled
 * endpoints; the enabled endpoints of the active teams it is in (lead, co-lead or accepted member, while
 * verified in its firm), with the team's id; and, as a row with a null id, its Follow Up Boss key. The
 * statement is the function `agent_integrations` (migration 202611270002), whose plan each connection
 * makes once.
 */
export function agentIntegrations(agentIds: RawBuilder<unknown>) {
  return sql<IntegrationRow>`
    select id, re_agent_id, events, team_id from agent_integrations(${agentIds})
  `
}

/**
 * Whether any agent in `agentIds` (an expression of type bigint[]) has an integration, as
 * `agentIntegrations` would answer: one index probe of `integrated_agent`, the agents for whom the
 * function answers a row, which triggers keep from the function itself on every write that can change
 * its answer (migration 202612040010, decision 063).
 */
export function anyIntegration(agentIds: RawBuilder<unknown>) {
  return sql<boolean>`exists (select from integrated_agent where re_agent_id = any(${agentIds}))`
}

/**
 * The integrations of an open house's listing and hosting agents as one JSON column of a statement that
 * reads `open_house`: a guest sign-in learns them in its first read instead of a statement of its own.
 */
export const openHouseIntegrations: RawBuilder<IntegrationRow[]> = sql<IntegrationRow[]>`(
  select coalesce(json_agg(i), '[]') from (${agentIntegrations(
    sql`array_remove(array[open_house.listing_re_agent_id, open_house.hosting_re_agent_id], null)::bigint[]`,
  )}) i
)`
