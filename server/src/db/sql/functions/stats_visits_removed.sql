-- stats_visits_removed: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_visits_removed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      insert into stats_pending (prospect_id) select distinct prospect_id from removed;
      return null;
    end $function$;
