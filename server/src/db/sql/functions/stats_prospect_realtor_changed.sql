-- stats_prospect_realtor_changed: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_prospect_realtor_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if (old.working_with_re_agent_flag is false) <> (new.working_with_re_agent_flag is false) then
        insert into stats_pending (prospect_id) values (new.id);
      end if;
      return null;
    end $function$;
