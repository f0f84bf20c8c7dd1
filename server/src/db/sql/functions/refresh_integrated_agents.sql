-- refresh_integrated_agents: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.refresh_integrated_agents(agent_ids bigint[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
    declare a bigint;
    begin
      for a in select distinct x from unnest(agent_ids) x where x is not null order by x loop
        perform pg_advisory_xact_lock(6917529027641081856::bigint + a);
      end loop;
      -- Each statement below reads as of now (read committed): after the locks, all the writers before.
      delete from integrated_agent where re_agent_id = any(agent_ids);
      insert into integrated_agent (re_agent_id)
        select distinct re_agent_id from agent_integrations(agent_ids)
        on conflict do nothing;
    end $function$;
