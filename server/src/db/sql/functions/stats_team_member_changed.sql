-- stats_team_member_changed: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_team_member_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        perform stats_team_people(old.re_team_id, array[old.re_agent_id]);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform stats_team_people(new.re_team_id, array[new.re_agent_id]);
      end if;
      return null;
    end $function$;
