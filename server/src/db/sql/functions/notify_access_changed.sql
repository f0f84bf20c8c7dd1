-- notify_access_changed: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.notify_access_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform pg_notify('access_changed', '');
      return null;
    end $function$;
