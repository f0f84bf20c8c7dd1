// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// The dashboard's statistics (SPEC §2) counted an agent's whole history at every read: at 100,000 open
// houses an agent's figures took over 100 ms and a team's a second. They are kept instead, by triggers
// in the same transaction as the change, so no service code has to remember them (decision 014):
//
//   agent_statistics  one row per agent: open houses it lists, hosts (not canceled) and lists canceled;
//                     distinct prospects who visited an open house it lists or hosts, and of those the
//                     ones not working with a realtor.
//   agent_visitor     one row per (agent, prospect) with a visit: how many visits (an open house the agent
//                     both lists and hosts counts once) and whether the prospect works without a realtor.
//                     The row comes with the first visit and goes with the last, moving the agent's counts.
//   team_person       everyone a team's statistics cover (lead, co-lead, current members who accepted),
//                     the same people as the teams module's `people(teamId)`.
//   team_visitor      one row per (team, prospect): how many of the team's people have that visitor.
//   team_statistics   per team, its distinct visitors and those without a realtor. A team's open-house
//                     counts are the sums of its people's (an open house has one listing agent and one
//                     host), so only the distinct visitors need rows of their own.
//
// Locks, so that two changes at once neither lose a count nor wait on each other in a circle: a visit
// first locks its open house and prospect rows (FOR SHARE: a claim or a realtor answer in flight is
// waited for, then read as committed); then the agents' statistics rows in ascending id, each before any
// of that agent's visitor rows; then the teams' statistics rows likewise before their visitor rows.
// Every count moves by `insert … on conflict do update set n = n + delta`.

export async function up(db: Kysely<any>): Promise<void> {
  // No foreign keys: rows follow open houses, visits and teams through the triggers, which also run
  // while an agent, a prospect or a team is being deleted (its cascades and "set null"s).
  await sql`
    create table agent_statistics (
      re_agent_id bigint primary key,
      listed_open_houses bigint not null default 0,
      hosted_open_houses bigint not null default 0,
      canceled_open_houses bigint not null default 0,
      visited_prospects bigint not null default 0,
      visited_prospects_without_realtor bigint not null default 0
    )`.execute(db)
  await sql`
    create table agent_visitor (
      re_agent_id bigint not null,
      prospect_id bigint not null,
      visits integer not null check (visits > 0),
      without_realtor boolean not null,
      primary key (re_agent_id, prospect_id)
    )`.execute(db)
  await sql`create index agent_visitor_prospect_id_idx on agent_visitor (prospect_id)`.execute(db)
  await sql`
    create table team_person (
      re_team_id bigint not null,
      re_agent_id bigint not null,
      primary key (re_team_id, re_agent_id)
    )`.execute(db)
  await sql`create index team_person_re_agent_id_idx on team_person (re_agent_id)`.execute(db)
  await sql`
    create table team_visitor (
      re_team_id bigint not null,
      prospect_id bigint not null,
      people integer not null check (people > 0),
      without_realtor boolean not null,
      primary key (re_team_id, prospect_id)
    )`.execute(db)
  await sql`create index team_visitor_prospect_id_idx on team_visitor (prospect_id)`.execute(db)
  await sql`
    create table team_statistics (
      re_team_id bigint primary key,
      visited_prospects bigint not null default 0,
      visited_prospects_without_realtor bigint not null default 0
    )`.execute(db)

  // Counters: an all-zero bump is how an agent's (a team's) rows are locked before they change.
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
  await sql`
    create function stats_team_bump(team bigint, visitors bigint, no_realtor bigint) returns void
    language sql as $$
      insert into team_statistics as s (re_team_id, visited_prospects, visited_prospects_without_realtor)
      values (team, visitors, no_realtor)
      on conflict (re_team_id) do update set
        visited_prospects = s.visited_prospects + excluded.visited_prospects,
        visited_prospects_without_realtor =
          s.visited_prospects_without_realtor + excluded.visited_prospects_without_realtor
    $$`.execute(db)

  // `delta` more (fewer) visits of the prospect for the agent: `moved` is 1 when the prospect became the
  // agent's visitor, -1 when it stopped being one, else 0; `no_realtor` is read only for a first visit.
  await sql`
    create function stats_visit(agent bigint, pid bigint, delta integer, no_realtor boolean,
                                out moved integer, out moved_no_realtor boolean)
    language plpgsql as $$
    declare now_visits integer;
    begin
      moved := 0;
      if delta > 0 then
        insert into agent_visitor as v (re_agent_id, prospect_id, visits, without_realtor)
        values (agent, pid, delta, no_realtor)
        on conflict (re_agent_id, prospect_id) do update set visits = v.visits + excluded.visits
        returning v.visits, v.without_realtor into now_visits, moved_no_realtor;
        if now_visits = delta then moved := 1; end if;
      else
        update agent_visitor v set visits = v.visits + delta
        where v.re_agent_id = agent and v.prospect_id = pid and v.visits + delta > 0;
        if not found then
          delete from agent_visitor v where v.re_agent_id = agent and v.prospect_id = pid
          returning v.without_realtor into moved_no_realtor;
          if found then moved := -1; end if;
        end if;
      end if;
    end $$`.execute(db)
  // The same for a team: `delta` more (fewer) of its people have the prospect as visitor.
  await sql`
    create function stats_team_visit(team bigint, pid bigint, delta integer, no_realtor boolean,
                                     out moved integer, out moved_no_realtor boolean)
    language plpgsql as $$
    declare now_people integer;
    begin
      moved := 0;
      if delta > 0 then
        insert into team_visitor as v (re_team_id, prospect_id, people, without_realtor)
        values (team, pid, delta, no_realtor)
        on conflict (re_team_id, prospect_id) do update set people = v.people + excluded.people
        returning v.people, v.without_realtor into now_people, moved_no_realtor;
        if now_people = delta then moved := 1; end if;
      else
        update team_visitor v set people = v.people + delta
        where v.re_team_id = team and v.prospect_id = pid and v.people + delta > 0;
        if not found then
          delete from team_visitor v where v.re_team_id = team and v.prospect_id = pid
          returning v.without_realtor into moved_no_realtor;
          if found then moved := -1; end if;
        end if;
      end if;
    end $$`.execute(db)

  await createVisitFunctions(db)

  await sql`
    create function stats_open_house_changed() returns trigger
    language plpgsql as $$
    declare
      r record;
      old_agents bigint[] := '{}';
      new_agents bigint[] := '{}';
      v_agent bigint[] := '{}';
      v_pid bigint[] := '{}';
      v_delta integer[] := '{}';
      v_nr boolean[] := '{}';
    begin
      if tg_op = 'DELETE' then
        -- Its visits go first, while the open house still names its agents (the cascade would find none).
        delete from open_house_attendee where open_house_id = old.id;
      end if;
      if tg_op = 'UPDATE' and old.listing_re_agent_id = new.listing_re_agent_id
        and old.hosting_re_agent_id is not distinct from new.hosting_re_agent_id
        and old.open_house_canceled_flag = new.open_house_canceled_flag then
        return old;
      end if;
      if tg_op <> 'INSERT' then
        old_agents := array(select distinct x from unnest(array[old.listing_re_agent_id,
          old.hosting_re_agent_id]) x where x is not null);
      end if;
      if tg_op <> 'DELETE' then
        new_agents := array(select distinct x from unnest(array[new.listing_re_agent_id,
          new.hosting_re_agent_id]) x where x is not null);
      end if;
      if tg_op = 'UPDATE' and not (old_agents @> new_agents and new_agents @> old_agents) then
        -- Its visitors' realtor answers are read as committed (see the locks above).
        perform 1 from prospect p join open_house_attendee a on a.prospect_id = p.id
        where a.open_house_id = new.id order by p.id for share of p;
      end if;
      for r in
        select agent, sum(listed) as listed, sum(hosted) as hosted, sum(canceled) as canceled,
          sum(visits)::int as visits
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
        -- Every agent's statistics row, in ascending id, before any visitor row.
        perform stats_bump(r.agent, r.listed, r.hosted, r.canceled, 0, 0);
        if r.visits <> 0 and tg_op = 'UPDATE' then
          -- A claim, a withdrawal, a new listing agent: the open house's visits go with it.
          select v_agent || array_agg(r.agent), v_pid || array_agg(a.prospect_id),
            v_delta || array_agg(r.visits), v_nr || array_agg(not p.working_with_re_agent_flag)
          into v_agent, v_pid, v_delta, v_nr
          from (select a.prospect_id from open_house_attendee a where a.open_house_id = new.id) a
          join prospect p on p.id = a.prospect_id;
          v_agent := coalesce(v_agent, '{}'); v_pid := coalesce(v_pid, '{}');
          v_delta := coalesce(v_delta, '{}'); v_nr := coalesce(v_nr, '{}');
        end if;
      end loop;
      if cardinality(v_agent) > 0 then
        perform stats_apply(v_agent, v_pid, v_delta, v_nr);
      end if;
      return old; -- lets a delete go on (BEFORE); ignored after an insert or update
    end $$`.execute(db)

  await sql`
    create function stats_attendee_changed() returns trigger
    language plpgsql as $$
    declare
      agents bigint[];
      v_agent bigint[] := '{}';
      v_pid bigint[] := '{}';
      v_delta integer[] := '{}';
      v_nr boolean[] := '{}';
      no_realtor boolean;
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        -- None when it goes with its open house: the open house's trigger took its visits already.
        perform 1 from open_house where id = old.open_house_id for share;
        agents := array(select distinct x from open_house oh,
          unnest(array[oh.listing_re_agent_id, oh.hosting_re_agent_id]) x
          where oh.id = old.open_house_id and x is not null);
        v_agent := agents;
        v_pid := array_fill(old.prospect_id, array[cardinality(agents)]);
        v_delta := array_fill(-1, array[cardinality(agents)]);
        v_nr := array_fill(null::boolean, array[cardinality(agents)]);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform 1 from open_house where id = new.open_house_id for share;
        select not working_with_re_agent_flag into no_realtor from prospect where id = new.prospect_id for share;
        agents := array(select distinct x from open_house oh,
          unnest(array[oh.listing_re_agent_id, oh.hosting_re_agent_id]) x
          where oh.id = new.open_house_id and x is not null);
        v_agent := v_agent || agents;
        v_pid := v_pid || array_fill(new.prospect_id, array[cardinality(agents)]);
        v_delta := v_delta || array_fill(1, array[cardinality(agents)]);
        v_nr := v_nr || array_fill(no_realtor, array[cardinality(agents)]);
      end if;
      perform stats_apply(v_agent, v_pid, v_delta, v_nr);
      return null;
    end $$`.execute(db)

  await sql`
    create function stats_team_changed() returns trigger
    language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform stats_team_people(old.id, '{}');
      elsif tg_op = 'INSERT' then
        perform stats_team_people(new.id, array[new.re_team_lead_id, new.re_co_team_lead_id]);
      else
        perform stats_team_people(new.id, array[old.re_team_lead_id, old.re_co_team_lead_id,
          new.re_team_lead_id, new.re_co_team_lead_id]);
      end if;
      return null;
    end $$`.execute(db)

  await sql`
    create function stats_team_member_changed() returns trigger
    language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        perform stats_team_people(old.re_team_id, array[old.re_agent_id]);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform stats_team_people(new.re_team_id, array[new.re_agent_id]);
      end if;
      return null;
    end $$`.execute(db)

  // Recounts everything from the rows: the backfill below, and a bench that loads rows with triggers off.
  await sql`
    create function stats_rebuild() returns void
    language sql as $$
      delete from agent_visitor;
      delete from agent_statistics;
      delete from team_person;
      delete from team_visitor;
      delete from team_statistics;
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
      insert into team_person (re_team_id, re_agent_id)
      select id, re_team_lead_id from re_team
      union select id, re_co_team_lead_id from re_team where re_co_team_lead_id is not null
      union select re_team_id, re_agent_id from re_team_member
        where re_agent_current_flag and invitation_status = 'accepted';
      insert into team_visitor (re_team_id, prospect_id, people, without_realtor)
      select tp.re_team_id, v.prospect_id, count(*), bool_and(v.without_realtor)
      from team_person tp join agent_visitor v on v.re_agent_id = tp.re_agent_id
      group by tp.re_team_id, v.prospect_id;
      insert into team_statistics (re_team_id, visited_prospects, visited_prospects_without_realtor)
      select t.id, count(v.prospect_id), count(v.prospect_id) filter (where v.without_realtor)
      from re_team t left join team_visitor v on v.re_team_id = t.id
      group by t.id;
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
  await sql`
    create trigger stats_team_changed after insert or delete or update of re_team_lead_id,
      re_co_team_lead_id on re_team
    for each row execute function stats_team_changed()`.execute(db)
  await sql`
    create trigger stats_team_member_changed after insert or delete or update of re_team_id, re_agent_id,
      re_agent_current_flag, invitation_status on re_team_member
    for each row execute function stats_team_member_changed()`.execute(db)

  // The triggers hold their tables against writes until this commits; the backfill counts what is there.
  await sql`select stats_rebuild()`.execute(db)
}

/**
 * How a visit moves the agents' and teams' rows, how a realtor answer moves through them, and how a team
 * takes on or gives back its people's visitors. 202611261300 replaces these; its down restores them.
 */
export async function createVisitFunctions(db: Kysely<any>): Promise<void> {
  // Applies visit changes (agent, prospect, ±visits, without realtor): agent by agent in ascending id,
  // each agent's statistics row locked before its visitor rows and bumped once after them; then the
  // teams of the agents whose visitors changed, in the same way.
  await sql`
    create or replace function stats_apply(v_agent bigint[], v_pid bigint[], v_delta integer[], v_nr boolean[])
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
          if cur is not null then perform stats_bump(cur, 0, 0, 0, n_vis, n_nr); end if;
          cur := r.agent; n_vis := 0; n_nr := 0;
          perform stats_bump(cur, 0, 0, 0, 0, 0);
        end if;
        select * into m from stats_visit(r.agent, r.pid, r.delta, r.nr);
        if m.moved <> 0 then
          n_vis := n_vis + m.moved;
          if m.moved_no_realtor then n_nr := n_nr + m.moved; end if;
          t_agent := t_agent || r.agent; t_pid := t_pid || r.pid;
          t_delta := t_delta || m.moved; t_nr := t_nr || m.moved_no_realtor;
        end if;
      end loop;
      if cur is not null then perform stats_bump(cur, 0, 0, 0, n_vis, n_nr); end if;

      cur := null; n_vis := 0; n_nr := 0;
      for r in
        select tp.re_team_id as team, x.pid, sum(x.delta)::int as delta, bool_and(x.nr) as nr
        from unnest(t_agent, t_pid, t_delta, t_nr) x(agent, pid, delta, nr)
        join team_person tp on tp.re_agent_id = x.agent
        group by tp.re_team_id, x.pid having sum(x.delta) <> 0 order by tp.re_team_id, x.pid
      loop
        if cur is distinct from r.team then
          if cur is not null then perform stats_team_bump(cur, n_vis, n_nr); end if;
          cur := r.team; n_vis := 0; n_nr := 0;
          perform stats_team_bump(cur, 0, 0);
        end if;
        select * into m from stats_team_visit(r.team, r.pid, r.delta, r.nr);
        if m.moved <> 0 then
          n_vis := n_vis + m.moved;
          if m.moved_no_realtor then n_nr := n_nr + m.moved; end if;
        end if;
      end loop;
      if cur is not null then perform stats_team_bump(cur, n_vis, n_nr); end if;
    end $$`.execute(db)

  await sql`
    create or replace function stats_prospect_realtor_changed() returns trigger
    language plpgsql as $$
    declare
      who bigint;
      d bigint := case when new.working_with_re_agent_flag then -1 else 1 end;
    begin
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

  // Whether each agent is one of the team's people now (teams module: lead, co-lead, current members who
  // accepted); one who joins brings its visitors to the team's rows, one who leaves takes them away.
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
        return;
      end if;
      -- Agents' rows before the team's, in ascending id: their visitors hold still while they are read.
      for agent in select distinct x from unnest(agents) x where x is not null order by 1 loop
        perform stats_bump(agent, 0, 0, 0, 0, 0);
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
}

const TRIGGERS: Array<[trigger: string, table: string]> = [
  ['stats_team_member_changed', 're_team_member'],
  ['stats_team_changed', 're_team'],
  ['stats_prospect_realtor_changed', 'prospect'],
  ['stats_attendee_changed', 'open_house_attendee'],
  ['stats_open_house_deleted', 'open_house'],
  ['stats_open_house_changed', 'open_house'],
]

const FUNCTIONS = [
  'stats_rebuild()',
  'stats_team_member_changed()',
  'stats_team_changed()',
  'stats_team_people(bigint, bigint[])',
  'stats_prospect_realtor_changed()',
  'stats_attendee_changed()',
  'stats_open_house_changed()',
  'stats_apply(bigint[], bigint[], integer[], boolean[])',
  'stats_team_visit(bigint, bigint, integer, boolean)',
  'stats_visit(bigint, bigint, integer, boolean)',
  'stats_team_bump(bigint, bigint, bigint)',
  'stats_bump(bigint, bigint, bigint, bigint, bigint, bigint)',
]

export async function down(db: Kysely<any>): Promise<void> {
  for (const [trigger, table] of TRIGGERS) {
    await sql`drop trigger ${sql.raw(trigger)} on ${sql.raw(table)}`.execute(db)
  }
  for (const fn of FUNCTIONS) await sql`drop function ${sql.raw(fn)}`.execute(db)
  for (const table of [
    'team_statistics',
    'team_visitor',
    'team_person',
    'agent_visitor',
    'agent_statistics',
  ]) {
    await sql`drop table ${sql.raw(table)}`.execute(db)
  }
}
