-- stats_team_people_by_visit: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_team_people_by_visit(team bigint, agents bigint[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
        perform pg_advisory_xact_lock(4611686018427387904::bigint + agent);
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
    end $function$;
