-- stats_rebuild_all: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_rebuild_all()
 RETURNS void
 LANGUAGE sql
AS $function$
      delete from agent_statistics_delta;
      delete from team_statistics_delta;
      select stats_rebuild();
    $function$;
