-- stats_fold: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_fold()
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
    declare
      n integer;
      ps bigint[];
      ohs bigint[];
      teams bigint[];
    begin
      perform pg_advisory_xact_lock(4611686018427387903::bigint);
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
    end $function$;
