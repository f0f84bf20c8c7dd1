// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Every guest sign-in asks which integrations its agents have switched on (webhooks/repo.ts). As one
// SQL statement sent each time, PostgreSQL planned its five-way union anew on every call: 3.5 ms of a
// sign-in's database time, more than the rest of its reads together. In a plpgsql function the plan is
// made once per connection and kept. The statement is the one the repository sent, unchanged.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function agent_integrations(agent_ids bigint[])
    returns table (id bigint, re_agent_id bigint, events text[], team_id bigint)
    language plpgsql stable as $$
    begin
      return query
        select e.id, e.re_agent_id, e.events, null::bigint from webhook_endpoint e
          where e.re_agent_id = any(agent_ids) and e.disabled_at is null and e.team_id is null
        union all
        select e.id, people.agent_id, e.events, e.team_id
          from (
            select t.id as team_id, t.re_team_lead_id as agent_id from re_team t
              where t.re_team_lead_id = any(agent_ids) and t.re_team_active_flag
            union
            select t.id, t.re_co_team_lead_id from re_team t
              where t.re_co_team_lead_id = any(agent_ids) and t.re_team_active_flag
            union
            select m.re_team_id, m.re_agent_id from re_team_member m
              join re_team t on t.id = m.re_team_id and t.re_team_active_flag
              where m.re_agent_id = any(agent_ids)
                and m.invitation_status = 'accepted' and m.re_agent_current_flag
          ) people
          join re_agent a on a.id = people.agent_id and a.firm_membership_status = 'verified'
          join webhook_endpoint e on e.team_id = people.team_id and e.disabled_at is null
        union all
        select null::bigint, f.re_agent_id, null::text[], null::bigint from fub_connector f
          where f.re_agent_id = any(agent_ids);
    end $$
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function agent_integrations(bigint[])`.execute(db)
}
