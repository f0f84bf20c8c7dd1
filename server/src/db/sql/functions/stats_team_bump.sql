-- stats_team_bump: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_team_bump(team bigint, visitors bigint, no_realtor bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
      insert into team_statistics as s (re_team_id, visited_prospects, visited_prospects_without_realtor)
      values (team, visitors, no_realtor)
      on conflict (re_team_id) do update set
        visited_prospects = s.visited_prospects + excluded.visited_prospects,
        visited_prospects_without_realtor =
          s.visited_prospects_without_realtor + excluded.visited_prospects_without_realtor
    $function$;
