// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// The kept statistics (decision 014) moved an agent's and a team's visitor rows inside every sign-in:
// shared locks, an upsert per agent and per team, about 0.4 ms of PostgreSQL CPU, 40 % of the sign-in
// (issue 38). A sign-in now writes one narrow row of `stats_pending` (the visitor whose visits changed),
// by a statement-level trigger reading the inserted rows as a transition table, and `stats_fold()`
// folds the rows waiting into the kept figures in one batch (decision 049):
//
//   stats_pending   what changed since the last fold: a prospect (a visit added, removed or moved, or its
//                   realtor answer), an open house (its listing agent or host), or a team (its people).
//   stats_fold()    under one advisory lock, takes every row committed so far and recounts, from the
//                   rows themselves, the agent_visitor rows of the prospects named (every prospect of an
//                   open house named) and the team_visitor rows of those prospects and of the teams named,
//                   moving agent_statistics / team_statistics by the difference. A recount is the same
//                   whatever order changes commit in, and the same when a row is folded twice, so no
//                   visit takes a lock for the statistics and two changes can never be counted out of
//                   order. The worker folds every second; a read of the figures folds first, so what it
//                   shows is exact: every change committed before the read is in it.
//
// The open-house counts (listed, hosted, canceled) are still moved by the open house's own trigger, and
// a team's people (team_person) by its team's: neither is on a sign-in's path. The functions this
// replaces are kept, renamed `*_by_visit`, for `down`.

const FOLD_KEY = '4611686018427387903' // the fold's advisory lock (below the agents' keys of 202611261300)

const RENAMED = [
  'stats_open_house_changed()',
  'stats_attendee_changed()',
  'stats_prospect_realtor_changed()',
  'stats_team_people(bigint, bigint[])',
] as const

async function dropTriggers(db: Kysely<any>): Promise<void> {
  await sql`drop trigger stats_open_house_changed on open_house`.execute(db)
  await sql`drop trigger stats_open_house_deleted on open_house`.execute(db)
  await sql`drop trigger stats_prospect_realtor_changed on prospect`.execute(db)
}

async function createOpenHouseAndProspectTriggers(db: Kysely<any>): Promise<void> {
  await sql`
    create trigger stats_open_house_changed after insert or update of listing_re_agent_id,
      hosting_re_agent_id, open_house_canceled_flag on open_house
    for each row execute function stats_open_house_changed()`.execute(db)
  await sql`
    create trigger stats_open_house_deleted before delete on open_house
    for each row execute function stats_open_house_changed()`.execute(db)
  await sql`
    create trigger stats_prospect_realtor_changed after update of working_with_re_agent_flag on prospect
    for each row when (old.working_with_re_agent_flag is distinct from new.working_with_re_agent_flag)
    execute function stats_prospect_realtor_changed()`.execute(db)
}

export async function up(db: Kysely<any>): Promise<void> {
  // No index: a fold takes every row there is, and a sign-in pays for one heap row only.
  await sql`
    create table stats_pending (
      prospect_id bigint,
      open_house_id bigint,
      re_team_id bigint,
      check (num_nonnulls(prospect_id, open_house_id, re_team_id) = 1)
    )`.execute(db)

  await dropTriggers(db)
  await sql`drop trigger stats_attendee_changed on open_house_attendee`.execute(db)
  for (const fn of RENAMED) {
    const name = fn.slice(0, fn.indexOf('('))
    await sql`alter function ${sql.raw(fn)} rename to ${sql.raw(`${name}_by_visit`)}`.execute(db)
  }

  // The open house's own counts, as before; its visitors are recounted by the next fold when its
  // agents change. A deleted open house's visits go first, so that they are named (below) as they go.
  await sql`
    create function stats_open_house_changed() returns trigger
    language plpgsql as $$
    declare r record;
    begin
      if tg_op = 'DELETE' then
        delete from open_house_attendee where open_house_id = old.id;
      end if;
      if tg_op = 'UPDATE' and old.listing_re_agent_id = new.listing_re_agent_id
        and old.hosting_re_agent_id is not distinct from new.hosting_re_agent_id
        and old.open_house_canceled_flag = new.open_house_canceled_flag then
        return old;
      end if;
      if tg_op = 'UPDATE' and (old.listing_re_agent_id <> new.listing_re_agent_id
        or old.hosting_re_agent_id is distinct from new.hosting_re_agent_id) then
        insert into stats_pending (open_house_id) values (new.id);
      end if;
      for r in
        select agent, sum(listed) as listed, sum(hosted) as hosted, sum(canceled) as canceled
        from (
          select old.listing_re_agent_id, -1, 0, -(old.open_house_canceled_flag::int)
            where tg_op <> 'INSERT'
          union all
          select old.hosting_re_agent_id, 0, -((not old.open_house_canceled_flag)::int), 0
            where tg_op <> 'INSERT' and old.hosting_re_agent_id is not null
          union all
          select new.listing_re_agent_id, 1, 0, new.open_house_canceled_flag::int
            where tg_op <> 'DELETE'
          union all
          select new.hosting_re_agent_id, 0, (not new.open_house_canceled_flag)::int, 0
            where tg_op <> 'DELETE' and new.hosting_re_agent_id is not null
        ) d(agent, listed, hosted, canceled)
        group by agent order by agent
      loop
        if r.listed <> 0 or r.hosted <> 0 or r.canceled <> 0 then
          perform stats_bump(r.agent, r.listed, r.hosted, r.canceled, 0, 0);
        end if;
      end loop;
      return old; -- lets a delete go on (BEFORE); ignored after an insert or update
    end $$`.execute(db)

  // Visits: once per statement, whatever number of rows it wrote.
  await sql`
    create function stats_visits_added() returns trigger
    language plpgsql as $$
    begin
      insert into stats_pending (prospect_id) select distinct prospect_id from added;
      return null;
    end $$`.execute(db)
  await sql`
    create function stats_visits_removed() returns trigger
    language plpgsql as $$
    begin
      insert into stats_pending (prospect_id) select distinct prospect_id from removed;
      return null;
    end $$`.execute(db)
  await sql`
    create function stats_attendee_changed() returns trigger
    language plpgsql as $$
    begin
      insert into stats_pending (prospect_id)
      select distinct x from unnest(array[old.prospect_id, new.prospect_id]) x;
      return null;
    end $$`.execute(db)
  await sql`
    create trigger stats_visits_added after insert on open_house_attendee
    referencing new table as added for each statement execute function stats_visits_added()`.execute(db)
  await sql`
    create trigger stats_visits_removed after delete on open_house_attendee
    referencing old table as removed for each statement execute function stats_visits_removed()`.execute(db)
  // A statement-level trigger with transition tables cannot name columns; a visit moved is rare.
  await sql`
    create trigger stats_attendee_changed after update of open_house_id, prospect_id on open_house_attendee
    for each row when (old.open_house_id <> new.open_house_id or old.prospect_id <> new.prospect_id)
    execute function stats_attendee_changed()`.execute(db)

  // Only "no" counts as without a realtor (202611290007): yes to not said and back moves nothing.
  await sql`
    create function stats_prospect_realtor_changed() returns trigger
    language plpgsql as $$
    begin
      if (old.working_with_re_agent_flag is false) <> (new.working_with_re_agent_flag is false) then
        insert into stats_pending (prospect_id) values (new.id);
      end if;
      return null;
    end $$`.execute(db)

  // A team's people move now (team_person); the visitors they bring or take, at the next fold.
  await sql`
    create function stats_team_people(team bigint, agents bigint[]) returns void
    language plpgsql as $$
    declare
      agent bigint;
      should boolean;
      moved boolean := false;
    begin
      if not exists (select 1 from re_team where re_team.id = team) then
        delete from team_person where re_team_id = team;
        delete from team_visitor where re_team_id = team;
        delete from team_statistics where re_team_id = team;
        delete from team_statistics_delta where re_team_id = team;
        insert into stats_pending (re_team_id) values (team);
        return;
      end if;
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
        else
          delete from team_person where re_team_id = team and re_agent_id = agent;
        end if;
        moved := true;
      end loop;
      if moved then
        insert into stats_pending (re_team_id) values (team);
      end if;
    end $$`.execute(db)

  await createOpenHouseAndProspectTriggers(db)

  await sql`
    create function stats_fold() returns integer
    language plpgsql as $$
    declare
      n integer;
      ps bigint[];
      ohs bigint[];
      teams bigint[];
    begin
      perform pg_advisory_xact_lock(${sql.raw(FOLD_KEY)}::bigint);
      with taken as (delete from stats_pending returning prospect_id, open_house_id, re_team_id)
      select count(*)::int,
        coalesce(array_agg(distinct prospect_id) filter (where prospect_id is not null), '{}'),
        coalesce(array_agg(distinct open_house_id) filter (where open_house_id is not null), '{}'),
        coalesce(array_agg(distinct re_team_id) filter (where re_team_id is not null), '{}')
      into n, ps, ohs, teams from taken;
      if n = 0 then return 0; end if;
      if cardinality(ohs) > 0 then
        ps := array(select distinct x from unnest(ps || array(
          select a.prospect_id from open_house_attendee a where a.open_house_id = any(ohs))) x);
      end if;

      -- The prospects' rows per agent, recounted; the agents' figures moved by what changed.
      with truth as (
        select g.agent, a.prospect_id as pid, count(*)::int as visits,
          bool_and(p.working_with_re_agent_flag is false) as nr
        from open_house_attendee a
        join open_house oh on oh.id = a.open_house_id
        join prospect p on p.id = a.prospect_id
        cross join lateral (select oh.listing_re_agent_id union select oh.hosting_re_agent_id) g(agent)
        where a.prospect_id = any(ps) and g.agent is not null
        group by g.agent, a.prospect_id
      ), kept as (
        select re_agent_id as agent, prospect_id as pid, visits, without_realtor as nr
        from agent_visitor where prospect_id = any(ps)
      ), diff as (
        select coalesce(t.agent, k.agent) as agent, coalesce(t.pid, k.pid) as pid,
          t.visits as tv, t.nr as tnr, k.visits as kv, k.nr as knr
        from truth t full join kept k on k.agent = t.agent and k.pid = t.pid
        where t.visits is distinct from k.visits or t.nr is distinct from k.nr
      ), removed as (
        delete from agent_visitor v using diff d
        where d.tv is null and v.re_agent_id = d.agent and v.prospect_id = d.pid
      ), added as (
        insert into agent_visitor (re_agent_id, prospect_id, visits, without_realtor)
        select agent, pid, tv, tnr from diff where kv is null
      ), changed as (
        update agent_visitor v set visits = d.tv, without_realtor = d.tnr
        from diff d where d.tv is not null and d.kv is not null
          and v.re_agent_id = d.agent and v.prospect_id = d.pid
      )
      insert into agent_statistics as s (re_agent_id, visited_prospects, visited_prospects_without_realtor)
      select agent, sum((tv is not null)::int - (kv is not null)::int),
        sum(coalesce(tnr, false)::int - coalesce(knr, false)::int)
      from diff group by agent
      having sum((tv is not null)::int - (kv is not null)::int) <> 0
        or sum(coalesce(tnr, false)::int - coalesce(knr, false)::int) <> 0
      order by agent
      on conflict (re_agent_id) do update set
        visited_prospects = s.visited_prospects + excluded.visited_prospects,
        visited_prospects_without_realtor =
          s.visited_prospects_without_realtor + excluded.visited_prospects_without_realtor;

      -- Then per team: those prospects, and every visitor of a team whose people changed.
      with people as (
        select tp.re_team_id as team, tp.re_agent_id, v.prospect_id as pid, v.without_realtor
        from agent_visitor v join team_person tp on tp.re_agent_id = v.re_agent_id
        where v.prospect_id = any(ps)
        union
        select tp.re_team_id, tp.re_agent_id, v.prospect_id, v.without_realtor
        from team_person tp join agent_visitor v on v.re_agent_id = tp.re_agent_id
        where tp.re_team_id = any(teams)
      ), truth as (
        select team, pid, count(*)::int as people, bool_and(without_realtor) as nr
        from people group by team, pid
      ), kept as (
        select re_team_id as team, prospect_id as pid, people, without_realtor as nr
        from team_visitor where prospect_id = any(ps)
        union
        select re_team_id, prospect_id, people, without_realtor
        from team_visitor where re_team_id = any(teams)
      ), diff as (
        select coalesce(t.team, k.team) as team, coalesce(t.pid, k.pid) as pid,
          t.people as tp, t.nr as tnr, k.people as kp, k.nr as knr
        from truth t full join kept k on k.team = t.team and k.pid = t.pid
        where t.people is distinct from k.people or t.nr is distinct from k.nr
      ), removed as (
        delete from team_visitor v using diff d
        where d.tp is null and v.re_team_id = d.team and v.prospect_id = d.pid
      ), added as (
        insert into team_visitor (re_team_id, prospect_id, people, without_realtor)
        select team, pid, tp, tnr from diff where kp is null
      ), changed as (
        update team_visitor v set people = d.tp, without_realtor = d.tnr
        from diff d where d.tp is not null and d.kp is not null
          and v.re_team_id = d.team and v.prospect_id = d.pid
      )
      insert into team_statistics as s (re_team_id, visited_prospects, visited_prospects_without_realtor)
      select team, sum((tp is not null)::int - (kp is not null)::int),
        sum(coalesce(tnr, false)::int - coalesce(knr, false)::int)
      from diff
      where exists (select 1 from re_team t where t.id = diff.team)
      group by team
      having sum((tp is not null)::int - (kp is not null)::int) <> 0
        or sum(coalesce(tnr, false)::int - coalesce(knr, false)::int) <> 0
      order by team
      on conflict (re_team_id) do update set
        visited_prospects = s.visited_prospects + excluded.visited_prospects,
        visited_prospects_without_realtor =
          s.visited_prospects_without_realtor + excluded.visited_prospects_without_realtor;
      -- A team deleted while its rows were recounted keeps none.
      delete from team_statistics s where s.re_team_id = any(teams)
        and not exists (select 1 from re_team t where t.id = s.re_team_id);
      return n;
    end $$`.execute(db)

  // A recount from the rows starts from nothing waiting, and no fold runs meanwhile.
  await sql`
    create or replace function stats_rebuild_all() returns void
    language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(${sql.raw(FOLD_KEY)}::bigint);
      delete from stats_pending;
      delete from agent_statistics_delta;
      delete from team_statistics_delta;
      perform stats_rebuild();
    end $$`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`select stats_fold()`.execute(db)
  await dropTriggers(db)
  await sql`drop trigger stats_attendee_changed on open_house_attendee`.execute(db)
  await sql`drop trigger stats_visits_removed on open_house_attendee`.execute(db)
  await sql`drop trigger stats_visits_added on open_house_attendee`.execute(db)
  await sql`drop function stats_fold()`.execute(db)
  await sql`drop function stats_visits_added()`.execute(db)
  await sql`drop function stats_visits_removed()`.execute(db)
  for (const fn of RENAMED) {
    const name = fn.slice(0, fn.indexOf('('))
    await sql`drop function ${sql.raw(fn)}`.execute(db)
    await sql`alter function ${sql.raw(fn.replace(name, `${name}_by_visit`))} rename to ${sql.raw(name)}`.execute(
      db,
    )
  }
  await createOpenHouseAndProspectTriggers(db)
  await sql`
    create trigger stats_attendee_changed after insert or delete or update of open_house_id, prospect_id
    on open_house_attendee for each row execute function stats_attendee_changed()`.execute(db)
  await sql`
    create or replace function stats_rebuild_all() returns void
    language sql as $$
      delete from agent_statistics_delta;
      delete from team_statistics_delta;
      select stats_rebuild();
    $$`.execute(db)
  await sql`drop table stats_pending`.execute(db)
}
