-- stats_visits_added: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_visits_added()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      insert into stats_pending (prospect_id) select distinct prospect_id from added;
      return null;
    end $function$;
