-- team_people: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.team_people(team bigint)
 RETURNS bigint[]
 LANGUAGE sql
 STABLE
AS $function$
      select coalesce((select array[t.re_team_lead_id, t.re_co_team_lead_id] from re_team t where t.id = team), '{}')
        || coalesce((select array_agg(m.re_agent_id) from re_team_member m where m.re_team_id = team), '{}')
    $function$;
