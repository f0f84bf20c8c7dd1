// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'
import { createVisitFunctions } from './202611261200-keep-agent-statistics.ts'

// The kept statistics (202611261200, decision 014) locked an agent's statistics row at every visit
// until the visit's transaction committed, so all the sign-ins at one open house queued on one row:
// under a burst they ran one at a time. A visit now waits on no statistics row:
//
// - The visitors it adds go to the agent's (the team's) row when no other transaction holds that row
//   (FOR UPDATE SKIP LOCKED), folding in the rows below as it does; when another holds it, to a row of
//   `agent_statistics_delta` (`team_statistics_delta`) of their own, which nobody else touches. The
//   figures are the kept row plus its deltas (views `agent_statistics_now`, `team_statistics_now`).
// - What the agent's row lock was for besides — holding an agent's visitor rows still while a team
//   takes them on or gives them back, and while a prospect's realtor answer moves through them — an
//   advisory lock per agent does: visits and realtor answers take it shared (they never wait on one
//   another), a membership change takes it exclusively. Each takes the agents in ascending id.

const AGENT_KEY = '4611686018427387904' // an agent's advisory lock is this plus its id (clear of others')

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, key] of [
    ['agent_statistics_delta', 're_agent_id'],
    ['team_statistics_delta', 're_team_id'],
  ] as const) {
    await sql`
      create table ${sql.raw(table)} (
        ${sql.raw(key)} bigint not null,
        visited_prospects integer not null,
        visited_prospects_without_realtor integer not null
      )`.execute(db)
    await sql`create index ${sql.raw(`${table}_idx`)} on ${sql.raw(table)} (${sql.raw(key)})`.execute(db)
  }

  await sql`
    create view agent_statistics_now as
      select re_agent_id, sum(listed_open_houses) as listed_open_houses,
        sum(hosted_open_houses) as hosted_open_houses, sum(canceled_open_houses) as canceled_open_houses,
        sum(visited_prospects) as visited_prospects,
        sum(visited_prospects_without_realtor) as visited_prospects_without_realtor
      from (
        select re_agent_id, listed_open_houses, hosted_open_houses, canceled_open_houses,
          visited_prospects, visited_prospects_without_realtor
        from agent_statistics
        union all
        select re_agent_id, 0, 0, 0, visited_prospects, visited_prospects_without_realtor
        from agent_statistics_delta
      ) kept
      group by re_agent_id`.execute(db)
  await sql`
    create view team_statistics_now as
      select re_team_id, sum(visited_prospects) as visited_prospects,
        sum(visited_prospects_without_realtor) as visited_prospects_without_realtor
      from (
        select re_team_id, visited_prospects, visited_prospects_without_realtor from team_statistics
        union all
        select re_team_id, visited_prospects, visited_prospects_without_realtor from team_statistics_delta
      ) kept
      group by re_team_id`.execute(db)

  await sql`
    create function stats_add_visitors(agent bigint, visitors bigint, no_realtor bigint) returns void
    language plpgsql as $$
    begin
      if visitors = 0 and no_realtor = 0 then return; end if;
      perform 1 from agent_statistics where re_agent_id = agent for update skip locked;
      if found then
        with folded as (
          delete from agent_statistics_delta where re_agent_id = agent
          returning visited_prospects as v, visited_prospects_without_realtor as nr
        ), total as (select coalesce(sum(v), 0) as v, coalesce(sum(nr), 0) as nr from folded)
        update agent_statistics s set
          visited_prospects = s.visited_prospects + visitors + total.v,
          visited_prospects_without_realtor = s.visited_prospects_without_realtor + no_realtor + total.nr
        from total where s.re_agent_id = agent;
      elsif exists (select 1 from agent_statistics where re_agent_id = agent) then
        insert into agent_statistics_delta values (agent, visitors, no_realtor);
      else
        perform stats_bump(agent, 0, 0, 0, visitors, no_realtor);
      end if;
    end $$`.execute(db)
  await sql`
    create function stats_team_add_visitors(team bigint, visitors bigint, no_realtor bigint) returns void
    language plpgsql as $$
    begin
      if visitors = 0 and no_realtor = 0 then return; end if;
      perform 1 from team_statistics where re_team_id = team for update skip locked;
      if found then
        with folded as (
          delete from team_statistics_delta where re_team_id = team
          returning visited_prospects as v, visited_prospects_without_realtor as nr
        ), total as (select coalesce(sum(v), 0) as v, coalesce(sum(nr), 0) as nr from folded)
        update team_statistics s set
          visited_prospects = s.visited_prospects + visitors + total.v,
          visited_prospects_without_realtor = s.visited_prospects_without_realtor + no_realtor + total.nr
        from total where s.re_team_id = team;
      elsif exists (select 1 from team_statistics where re_team_id = team) then
        insert into team_statistics_delta values (team, visitors, no_realtor);
      else
        perform stats_team_bump(team, visitors, no_realtor);
      end if;
    end $$`.execute(db)

  // As before (202611261200), but a visit takes its agents' advisory locks shared instead of their rows,
  // and adds its visitors without waiting.
  await sql`
    create or replace function stats_apply(v_agent bigint[], v_pid bigint[], v_delta integer[],
                                           v_nr boolean[])
    returns void
    language plpgsql as $$
    declare
      r record;
      m record;
      cur bigint := null;
      n_vis bigint := 0;
      n_nr bigint := 0;
      t_agent bigint[] := '{}';
      t_pid bigint[] := '{}';
      t_delta integer[] := '{}';
      t_nr boolean[] := '{}';
    begin
      for r in
        select x.agent, x.pid, sum(x.delta)::int as delta, bool_and(x.nr) as nr
        from unnest(v_agent, v_pid, v_delta, v_nr) x(agent, pid, delta, nr)
        group by x.agent, x.pid having sum(x.delta) <> 0 order by x.agent, x.pid
      loop
        if cur is distinct from r.agent then
          if cur is not null then perform stats_add_visitors(cur, n_vis, n_nr); end if;
          cur := r.agent; n_vis := 0; n_nr := 0;
          perform pg_advisory_xact_lock_shared(${sql.raw(AGENT_KEY)}::bigint + cur);
        end if;
        select * into m from stats_visit(r.agent, r.pid, r.delta, r.nr);
        if m.moved <> 0 then
          n_vis := n_vis + m.moved;
          if m.moved_no_realtor then n_nr := n_nr + m.moved; end if;
          t_agent := t_agent || r.agent; t_pid := t_pid || r.pid;
          t_delta := t_delta || m.moved; t_nr := t_nr || m.moved_no_realtor;
        end if;
      end loop;
      if cur is not null then perform stats_add_visitors(cur, n_vis, n_nr); end if;

      cur := null; n_vis := 0; n_nr := 0;
      for r in
        select tp.re_team_id as team, x.pid, sum(x.delta)::int as delta, bool_and(x.nr) as nr
        from unnest(t_agent, t_pid, t_delta, t_nr) x(agent, pid, delta, nr)
        join team_person tp on tp.re_agent_id = x.agent
        group by tp.re_team_id, x.pid having sum(x.delta) <> 0 order by tp.re_team_id, x.pid
      loop
        if cur is distinct from r.team then
          if cur is not null then perform stats_team_add_visitors(cur, n_vis, n_nr); end if;
          cur := r.team; n_vis := 0; n_nr := 0;
        end if;
        select * into m from stats_team_visit(r.team, r.pid, r.delta, r.nr);
        if m.moved <> 0 then
          n_vis := n_vis + m.moved;
          if m.moved_no_realtor then n_nr := n_nr + m.moved; end if;
        end if;
      end loop;
      if cur is not null then perform stats_team_add_visitors(cur, n_vis, n_nr); end if;
    end $$`.execute(db)

  // A realtor answer moves through the prospect's agents' visitor rows under their shared locks first.
  await sql`
    create or replace function stats_prospect_realtor_changed() returns trigger
    language plpgsql as $$
    declare
      who bigint;
      d bigint := case when new.working_with_re_agent_flag then -1 else 1 end;
    begin
      perform pg_advisory_xact_lock_shared(${sql.raw(AGENT_KEY)}::bigint + a)
      from (select re_agent_id as a from agent_visitor where prospect_id = new.id order by 1) agents;
      for who in select re_agent_id from agent_visitor where prospect_id = new.id order by 1 loop
        perform stats_bump(who, 0, 0, 0, 0, d);
        update agent_visitor set without_realtor = not new.working_with_re_agent_flag
        where re_agent_id = who and prospect_id = new.id;
      end loop;
      for who in select re_team_id from team_visitor where prospect_id = new.id order by 1 loop
        perform stats_team_bump(who, 0, d);
        update team_visitor set without_realtor = not new.working_with_re_agent_flag
        where re_team_id = who and prospect_id = new.id;
      end loop;
      return null;
    end $$`.execute(db)

  // A membership change holds its agents' visitor rows still with their advisory locks, exclusively.
  await sql`
    create or replace function stats_team_people(team bigint, agents bigint[]) returns void
    language plpgsql as $$
    declare
      agent bigint;
      r record;
      m record;
      should boolean;
      d integer;
      n_vis bigint := 0;
      n_nr bigint := 0;
    begin
      if not exists (select 1 from re_team where re_team.id = team) then
        delete from team_person where re_team_id = team;
        delete from team_visitor where re_team_id = team;
        delete from team_statistics where re_team_id = team;
        delete from team_statistics_delta where re_team_id = team;
        return;
      end if;
      for agent in select distinct x from unnest(agents) x where x is not null order by 1 loop
        perform pg_advisory_xact_lock(${sql.raw(AGENT_KEY)}::bigint + agent);
      end loop;
      perform stats_team_bump(team, 0, 0);
      for agent in select distinct x from unnest(agents) x where x is not null order by 1 loop
        should := exists (select 1 from re_team t where t.id = team
            and (t.re_team_lead_id = agent or t.re_co_team_lead_id = agent))
          or exists (select 1 from re_team_member tm where tm.re_team_id = team and tm.re_agent_id = agent
            and tm.re_agent_current_flag and tm.invitation_status = 'accepted');
        if should = exists (select 1 from team_person where re_team_id = team and re_agent_id = agent) then
          continue;
        end if;
        if should then
          insert into team_person (re_team_id, re_agent_id) values (team, agent);
          d := 1;
        else
          delete from team_person where re_team_id = team and re_agent_id = agent;
          d := -1;
        end if;
        for r in select prospect_id, without_realtor from agent_visitor where re_agent_id = agent
          order by prospect_id
        loop
          select * into m from stats_team_visit(team, r.prospect_id, d, r.without_realtor);
          if m.moved <> 0 then
            n_vis := n_vis + m.moved;
            if m.moved_no_realtor then n_nr := n_nr + m.moved; end if;
          end if;
        end loop;
      end loop;
      perform stats_team_bump(team, n_vis, n_nr);
    end $$`.execute(db)

  // A recount from the rows starts from no deltas.
  await sql`
    create function stats_rebuild_all() returns void
    language sql as $$
      delete from agent_statistics_delta;
      delete from team_statistics_delta;
      select stats_rebuild();
    $$`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function stats_rebuild_all()`.execute(db)
  await sql`drop view team_statistics_now`.execute(db)
  await sql`drop view agent_statistics_now`.execute(db)
  // Fold the deltas back into the kept rows, then restore the functions of 202611261200.
  await sql`
    update agent_statistics s set visited_prospects = s.visited_prospects + d.v,
      visited_prospects_without_realtor = s.visited_prospects_without_realtor + d.nr
    from (select re_agent_id, sum(visited_prospects) v, sum(visited_prospects_without_realtor) nr
          from agent_statistics_delta group by re_agent_id) d
    where d.re_agent_id = s.re_agent_id`.execute(db)
  await sql`
    update team_statistics s set visited_prospects = s.visited_prospects + d.v,
      visited_prospects_without_realtor = s.visited_prospects_without_realtor + d.nr
    from (select re_team_id, sum(visited_prospects) v, sum(visited_prospects_without_realtor) nr
          from team_statistics_delta group by re_team_id) d
    where d.re_team_id = s.re_team_id`.execute(db)
  await createVisitFunctions(db)
  await sql`drop function stats_team_add_visitors(bigint, bigint, bigint)`.execute(db)
  await sql`drop function stats_add_visitors(bigint, bigint, bigint)`.execute(db)
  await sql`drop table team_statistics_delta`.execute(db)
  await sql`drop table agent_statistics_delta`.execute(db)
}
