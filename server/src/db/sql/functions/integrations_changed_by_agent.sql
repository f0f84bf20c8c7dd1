-- integrations_changed_by_agent: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.integrations_changed_by_agent()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform refresh_integrated_agents(array[old.re_agent_id, new.re_agent_id]);
      return null;
    end $function$;
