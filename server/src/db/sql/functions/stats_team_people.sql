-- stats_team_people: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_team_people(team bigint, agents bigint[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
    end $function$;
