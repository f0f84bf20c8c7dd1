-- stats_bump: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_bump(agent bigint, listed bigint, hosted bigint, canceled bigint, visitors bigint, no_realtor bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
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
    $function$;
