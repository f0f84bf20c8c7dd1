-- stats_rebuild: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_rebuild()
 RETURNS void
 LANGUAGE sql
AS $function$
      delete from agent_visitor;
      delete from agent_statistics;
      delete from team_person;
      delete from team_visitor;
      delete from team_statistics;
      insert into agent_visitor (re_agent_id, prospect_id, visits, without_realtor)
      select g.agent, a.prospect_id, count(*), bool_and(p.working_with_re_agent_flag is false)
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
    $function$;
