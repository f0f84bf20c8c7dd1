-- integrations_changed_by_team: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.integrations_changed_by_team()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      perform refresh_integrated_agents(array[old.re_team_lead_id, old.re_co_team_lead_id,
        new.re_team_lead_id, new.re_co_team_lead_id] || team_people(old.id) || team_people(new.id));
      return null;
    end $function$;
