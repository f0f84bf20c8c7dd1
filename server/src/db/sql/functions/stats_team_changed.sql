-- stats_team_changed: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_team_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if tg_op = 'DELETE' then
        perform stats_team_people(old.id, '{}');
      elsif tg_op = 'INSERT' then
        perform stats_team_people(new.id, array[new.re_team_lead_id, new.re_co_team_lead_id]);
      else
        perform stats_team_people(new.id, array[old.re_team_lead_id, old.re_co_team_lead_id,
          new.re_team_lead_id, new.re_co_team_lead_id]);
      end if;
      return null;
    end $function$;
