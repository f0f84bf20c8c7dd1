-- stats_visit: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_visit(agent bigint, pid bigint, delta integer, no_realtor boolean, OUT moved integer, OUT moved_no_realtor boolean)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
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
    end $function$;
