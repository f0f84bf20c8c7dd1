-- integrations_changed_by_verification: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.integrations_changed_by_verification()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform refresh_integrated_agents(array[new.id]);
      return null;
    end $function$;
