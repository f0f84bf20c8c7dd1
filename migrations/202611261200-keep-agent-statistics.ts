// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// The dashboard's statistics (SPEC §2) counted an agent's whole history at every read: at 100,000 open
// houses an agent's figures took over 100 ms and a team's a second. They are kept instead, by triggers
// in the same transaction as the change, so no service code has to remember them (decision 012):
//
//   agent_statistics  one row per agent: open houses it lists, hosts (not canceled) and lists canceled;
//                     distinct prospects who visited an open house it lists or hosts, and of those the
//                     ones not working with a realtor.
//   agent_visitor     one row per (agent, prospect) with a visit: how many visits (an open house the agent
//                     both lists and hosts counts once) and whether the prospect works without a realtor.
//                     The row appears with the first visit and goes with the last, which moves the
//                     agent's distinct counts; a team counts the distinct prospects of its members' rows.
//
// Locks, so that two changes at once neither lose a count nor wait on each other in a circle: a visit
// first locks its open house and prospect rows (FOR SHARE: a claim or a realtor answer in flight is
// waited for, then read as committed), then an agent's rows in ascending agent id, its visitor rows
// before its statistics row. Every counter moves by `insert … on conflict do update set n = n + delta`.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table agent_statistics (
      re_agent_id bigint primary key,
      listed_open_houses bigint not null default 0,
      hosted_open_houses bigint not null default 0,
      canceled_open_houses bigint not null default 0,
      visited_prospects bigint not null default 0,
      visited_prospects_without_realtor bigint not null default 0
    )`.execute(db)
  // No foreign keys: rows follow open houses and visits through the triggers, which also run while an
  // agent or a prospect is being deleted (its cascades and "set null"s).
  await sql`
    create table agent_visitor (
      re_agent_id bigint not null,
      prospect_id bigint not null,
      visits integer not null check (visits > 0),
      without_realtor boolean not null,
      primary key (re_agent_id, prospect_id) include (without_realtor)
    )`.execute(db)
  await sql`create index agent_visitor_prospect_id_idx on agent_visitor (prospect_id)`.execute(db)

  await sql`
    create function stats_bump(agent bigint, listed bigint, hosted bigint, canceled bigint,
                               visitors bigint, no_realtor bigint) returns void
    language sql as $$
      insert into agent_statistics as s (re_agent_id, listed_open_houses, hosted_open_houses,
        canceled_open_houses, visited_prospects, visited_prospects_without_realtor)
      values (agent, listed, hosted, canceled, visitors, no_realtor)
      on conflict (re_agent_id) do update set
        listed_open_houses = s.listed_open_houses + excluded.listed_open_houses,
        hosted_open_houses = s.hosted_open_houses + excluded.hosted_open_houses,
        canceled_open_houses = s.canceled_open_houses + excluded.canceled_open_houses,
        visited_prospects = s.visited_prospects + excluded.visited_prospects,
        visited_prospects_without_realtor =
          s.visited_prospects_without_realtor + excluded.visited_prospects_without_realtor
    $$`.execute(db)

  // One more (delta 1) or one fewer (-1) visit of the prospect at the agent's open houses; the first and
  // the last visit move the agent's distinct counts. `no_realtor` is read only for a first visit.
  await sql`
    create function stats_visit(agent bigint, pid bigint, delta integer, no_realtor boolean) returns void
    language plpgsql as $$
    declare
      now_visits integer;
      was_without boolean;
    begin
      if delta > 0 then
        insert into agent_visitor as v (re_agent_id, prospect_id, visits, without_realtor)
        values (agent, pid, delta, no_realtor)
        on conflict (re_agent_id, prospect_id) do update set visits = v.visits + excluded.visits
        returning v.visits, v.without_realtor into now_visits, was_without;
        if now_visits = delta then
          perform stats_bump(agent, 0, 0, 0, 1, case when was_without then 1 else 0 end);
        end if;
      else
        update agent_visitor v set visits = v.visits + delta
        where v.re_agent_id = agent and v.prospect_id = pid and v.visits + delta > 0;
        if not found then
          delete from agent_visitor v where v.re_agent_id = agent and v.prospect_id = pid
          returning v.without_realtor into was_without;
          if found then
            perform stats_bump(agent, 0, 0, 0, -1, case when was_without then -1 else 0 end);
          end if;
        end if;
      end if;
    end $$`.execute(db)

  // Every visit of an open house, added to (1) or taken from (-1) an agent: a claim, a withdrawal, a
  // listing agent changed.
  await sql`
    create function stats_open_house_visits(agent bigint, ohid bigint, delta integer) returns void
    language plpgsql as $$
    declare r record;
    begin
      for r in
        select a.prospect_id, not p.working_with_re_agent_flag as no_realtor
        from open_house_attendee a join prospect p on p.id = a.prospect_id
        where a.open_house_id = ohid order by a.prospect_id for share of p
      loop
        perform stats_visit(agent, r.prospect_id, delta, r.no_realtor);
      end loop;
    end $$`.execute(db)

  await sql`
    create function stats_open_house_changed() returns trigger
    language plpgsql as $$
    declare
      r record;
      old_agents bigint[] := '{}';
      new_agents bigint[] := '{}';
    begin
      if tg_op = 'DELETE' then
        -- Its visits go first, while the open house still names its agents (the cascade would find none).
        delete from open_house_attendee where open_house_id = old.id;
      end if;
      if tg_op <> 'INSERT' then
        old_agents := array(select distinct x from unnest(array[old.listing_re_agent_id,
          old.hosting_re_agent_id]) x where x is not null);
      end if;
      if tg_op <> 'DELETE' then
        new_agents := array(select distinct x from unnest(array[new.listing_re_agent_id,
          new.hosting_re_agent_id]) x where x is not null);
      end if;
      if tg_op = 'UPDATE' and old.listing_re_agent_id = new.listing_re_agent_id
        and old.hosting_re_agent_id is not distinct from new.hosting_re_agent_id
        and old.open_house_canceled_flag = new.open_house_canceled_flag then
        return old; -- lets a delete go on (BEFORE); ignored after an insert or update
      end if;
      for r in
        select agent, sum(listed) listed, sum(hosted) hosted, sum(canceled) canceled,
          sum(visits) visits
        from (
          select old.listing_re_agent_id, -1, 0, -(old.open_house_canceled_flag::int), 0
            where tg_op <> 'INSERT'
          union all
          select old.hosting_re_agent_id, 0, -((not old.open_house_canceled_flag)::int), 0, 0
            where tg_op <> 'INSERT' and old.hosting_re_agent_id is not null
          union all
          select new.listing_re_agent_id, 1, 0, new.open_house_canceled_flag::int, 0
            where tg_op <> 'DELETE'
          union all
          select new.hosting_re_agent_id, 0, (not new.open_house_canceled_flag)::int, 0, 0
            where tg_op <> 'DELETE' and new.hosting_re_agent_id is not null
          union all
          select x, 0, 0, 0, -1 from unnest(old_agents) x where x <> all(new_agents)
          union all
          select x, 0, 0, 0, 1 from unnest(new_agents) x where x <> all(old_agents)
        ) d(agent, listed, hosted, canceled, visits)
        group by agent order by agent
      loop
        -- An agent's visitor rows before its statistics row, agents in ascending id: one lock order.
        if r.visits <> 0 and tg_op = 'UPDATE' then
          perform stats_open_house_visits(r.agent, new.id, r.visits::int);
        end if;
        if r.listed <> 0 or r.hosted <> 0 or r.canceled <> 0 then
          perform stats_bump(r.agent, r.listed, r.hosted, r.canceled, 0, 0);
        end if;
      end loop;
      return old;
    end $$`.execute(db)

  await sql`
    create function stats_attendee_changed() returns trigger
    language plpgsql as $$
    declare
      oh record;
      no_realtor boolean;
      agent bigint;
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        select listing_re_agent_id, hosting_re_agent_id into oh
        from open_house where id = old.open_house_id for share;
        -- Gone with its open house: the open house's trigger took its visits already.
        if found then
          for agent in select distinct x from unnest(array[oh.listing_re_agent_id, oh.hosting_re_agent_id]) x
            where x is not null order by 1
          loop
            perform stats_visit(agent, old.prospect_id, -1, null);
          end loop;
        end if;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        select listing_re_agent_id, hosting_re_agent_id into oh
        from open_house where id = new.open_house_id for share;
        select not working_with_re_agent_flag into no_realtor from prospect where id = new.prospect_id for share;
        for agent in select distinct x from unnest(array[oh.listing_re_agent_id, oh.hosting_re_agent_id]) x
          where x is not null order by 1
        loop
          perform stats_visit(agent, new.prospect_id, 1, no_realtor);
        end loop;
      end if;
      return null;
    end $$`.execute(db)

  await sql`
    create function stats_prospect_realtor_changed() returns trigger
    language plpgsql as $$
    declare agent bigint;
    begin
      for agent in
        select re_agent_id from agent_visitor where prospect_id = new.id order by re_agent_id
      loop
        update agent_visitor set without_realtor = not new.working_with_re_agent_flag
        where re_agent_id = agent and prospect_id = new.id;
        perform stats_bump(agent, 0, 0, 0, 0, case when new.working_with_re_agent_flag then -1 else 1 end);
      end loop;
      return null;
    end $$`.execute(db)

  // Recounts everything from the rows: the backfill below, and a bench that loads rows with triggers off.
  await sql`
    create function stats_rebuild() returns void
    language sql as $$
      delete from agent_visitor;
      delete from agent_statistics;
      insert into agent_visitor (re_agent_id, prospect_id, visits, without_realtor)
      select g.agent, a.prospect_id, count(*), bool_and(not p.working_with_re_agent_flag)
      from open_house_attendee a
      join open_house oh on oh.id = a.open_house_id
      join prospect p on p.id = a.prospect_id
      cross join lateral (select oh.listing_re_agent_id union select oh.hosting_re_agent_id) g(agent)
      where g.agent is not null
      group by g.agent, a.prospect_id;
      insert into agent_statistics (re_agent_id, listed_open_houses, hosted_open_houses,
        canceled_open_houses, visited_prospects, visited_prospects_without_realtor)
      select agent, sum(listed), sum(hosted), sum(canceled), sum(visitors), sum(without_realtor)
      from (
        select listing_re_agent_id, count(*), 0, count(*) filter (where open_house_canceled_flag), 0, 0
        from open_house group by listing_re_agent_id
        union all
        select hosting_re_agent_id, 0, count(*) filter (where not open_house_canceled_flag), 0, 0, 0
        from open_house where hosting_re_agent_id is not null group by hosting_re_agent_id
        union all
        select re_agent_id, 0, 0, 0, count(*), count(*) filter (where without_realtor)
        from agent_visitor group by re_agent_id
      ) d(agent, listed, hosted, canceled, visitors, without_realtor)
      group by agent;
    $$`.execute(db)

  await sql`
    create trigger stats_open_house_changed after insert or update of listing_re_agent_id,
      hosting_re_agent_id, open_house_canceled_flag on open_house
    for each row execute function stats_open_house_changed()`.execute(db)
  await sql`
    create trigger stats_open_house_deleted before delete on open_house
    for each row execute function stats_open_house_changed()`.execute(db)
  await sql`
    create trigger stats_attendee_changed after insert or delete or update of open_house_id, prospect_id
    on open_house_attendee for each row execute function stats_attendee_changed()`.execute(db)
  await sql`
    create trigger stats_prospect_realtor_changed after update of working_with_re_agent_flag on prospect
    for each row when (old.working_with_re_agent_flag is distinct from new.working_with_re_agent_flag)
    execute function stats_prospect_realtor_changed()`.execute(db)

  // The triggers hold their tables against writes until this commits; the backfill counts what is there.
  await sql`select stats_rebuild()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger stats_prospect_realtor_changed on prospect`.execute(db)
  await sql`drop trigger stats_attendee_changed on open_house_attendee`.execute(db)
  await sql`drop trigger stats_open_house_deleted on open_house`.execute(db)
  await sql`drop trigger stats_open_house_changed on open_house`.execute(db)
  for (const fn of [
    'stats_rebuild()',
    'stats_prospect_realtor_changed()',
    'stats_attendee_changed()',
    'stats_open_house_changed()',
    'stats_open_house_visits(bigint, bigint, integer)',
    'stats_visit(bigint, bigint, integer, boolean)',
    'stats_bump(bigint, bigint, bigint, bigint, bigint, bigint)',
  ]) {
    await sql`drop function ${sql.raw(fn)}`.execute(db)
  }
  await sql`drop table agent_visitor`.execute(db)
  await sql`drop table agent_statistics`.execute(db)
}
