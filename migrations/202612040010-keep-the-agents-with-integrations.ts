// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// The agents for whom `agent_integrations` (202611270002) answers at least one row, kept as a table
// (decision 063). The one-statement sign-in (decision 061) writes only at a door none of whose agents
// has an integration; asking the function on every sign-in cost about a seventh of its PostgreSQL CPU
// (a plpgsql call planning and running five branches to answer "none"), where one index probe of this
// table answers the same.
//
// Every write that can change the function's answer for an agent recomputes that agent's row from the
// function itself, so the rule stays stated once: an endpoint (its agent, or every person of its team),
// a Follow Up Boss key, a team (its leads and members), a membership, an agent's verification. The
// recomputation of an agent is serialized by an advisory lock of its own (INTEGRATIONS_KEY plus its id),
// taken before the function is asked, so each writer reads what the one before it committed: two
// simultaneous changes for one agent cannot leave its row as neither alone would. A row left for an
// agent since deleted only sends that agent's sign-ins to the transaction, which asks the function.

/** An agent's lock here is this plus its id: clear of the plain ids (teams, open houses) and of statistics' 2^62. */
const INTEGRATIONS_KEY = '6917529027641081856' // 2^62 + 2^61

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table integrated_agent (re_agent_id bigint primary key)`.execute(db)
  await sql`
    create function refresh_integrated_agents(agent_ids bigint[]) returns void language plpgsql as $$
    declare a bigint;
    begin
      for a in select distinct x from unnest(agent_ids) x where x is not null order by x loop
        perform pg_advisory_xact_lock(${sql.raw(INTEGRATIONS_KEY)}::bigint + a);
      end loop;
      -- Each statement below reads as of now (read committed): after the locks, all the writers before.
      delete from integrated_agent where re_agent_id = any(agent_ids);
      insert into integrated_agent (re_agent_id)
        select distinct re_agent_id from agent_integrations(agent_ids)
        on conflict do nothing;
    end $$`.execute(db)
  // A team's people as agent_integrations may count them: its leads and every member, whatever its answer.
  await sql`
    create function team_people(team bigint) returns bigint[] language sql stable as $$
      select coalesce((select array[t.re_team_lead_id, t.re_co_team_lead_id] from re_team t where t.id = team), '{}')
        || coalesce((select array_agg(m.re_agent_id) from re_team_member m where m.re_team_id = team), '{}')
    $$`.execute(db)
  await sql`
    create function integrations_changed_by_endpoint() returns trigger language plpgsql as $$
    begin
      perform refresh_integrated_agents(array[old.re_agent_id, new.re_agent_id]
        || team_people(old.team_id) || team_people(new.team_id));
      return null;
    end $$`.execute(db)
  await sql`
    create function integrations_changed_by_agent() returns trigger language plpgsql as $$
    begin
      perform refresh_integrated_agents(array[old.re_agent_id, new.re_agent_id]);
      return null;
    end $$`.execute(db)
  await sql`
    create function integrations_changed_by_team() returns trigger language plpgsql as $$
    begin
      perform refresh_integrated_agents(array[old.re_team_lead_id, old.re_co_team_lead_id,
        new.re_team_lead_id, new.re_co_team_lead_id] || team_people(old.id) || team_people(new.id));
      return null;
    end $$`.execute(db)
  await sql`
    create function integrations_changed_by_verification() returns trigger language plpgsql as $$
    begin
      perform refresh_integrated_agents(array[new.id]);
      return null;
    end $$`.execute(db)
  await sql`create trigger integrations_changed after insert or delete or update of re_agent_id, team_id, disabled_at
    on webhook_endpoint for each row execute function integrations_changed_by_endpoint()`.execute(db)
  await sql`create trigger integrations_changed after insert or delete or update of re_agent_id
    on fub_connector for each row execute function integrations_changed_by_agent()`.execute(db)
  await sql`create trigger integrations_changed
    after insert or delete or update of re_team_id, re_agent_id, invitation_status, re_agent_current_flag
    on re_team_member for each row execute function integrations_changed_by_agent()`.execute(db)
  await sql`create trigger integrations_changed
    after insert or delete or update of re_team_lead_id, re_co_team_lead_id, re_team_active_flag
    on re_team for each row execute function integrations_changed_by_team()`.execute(db)
  await sql`create trigger integrations_changed after update of firm_membership_status on re_agent
    for each row when (old.firm_membership_status is distinct from new.firm_membership_status)
    execute function integrations_changed_by_verification()`.execute(db)
  await sql`insert into integrated_agent (re_agent_id)
    select distinct re_agent_id from agent_integrations(array(select id from re_agent))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_endpoint', 'fub_connector', 're_team_member', 're_team', 're_agent']) {
    await sql`drop trigger integrations_changed on ${sql.table(table)}`.execute(db)
  }
  await sql`drop function integrations_changed_by_endpoint()`.execute(db)
  await sql`drop function integrations_changed_by_agent()`.execute(db)
  await sql`drop function integrations_changed_by_team()`.execute(db)
  await sql`drop function integrations_changed_by_verification()`.execute(db)
  await sql`drop function team_people(bigint)`.execute(db)
  await sql`drop function refresh_integrated_agents(bigint[])`.execute(db)
  await sql`drop table integrated_agent`.execute(db)
}
