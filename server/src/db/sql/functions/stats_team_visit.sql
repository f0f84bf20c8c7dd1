-- stats_team_visit: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_team_visit(team bigint, pid bigint, delta integer, no_realtor boolean, OUT moved integer, OUT moved_no_realtor boolean)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
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
    end $function$;
