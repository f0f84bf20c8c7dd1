-- stats_add_visitors: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_add_visitors(agent bigint, visitors bigint, no_realtor bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
    end $function$;
