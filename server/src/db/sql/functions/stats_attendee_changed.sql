-- stats_attendee_changed: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_attendee_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      insert into stats_pending (prospect_id)
      select distinct x from unnest(array[old.prospect_id, new.prospect_id]) x;
      return null;
    end $function$;
