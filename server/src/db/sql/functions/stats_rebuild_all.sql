-- stats_rebuild_all: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_rebuild_all()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
    begin
      perform pg_advisory_xact_lock(4611686018427387903::bigint);
      delete from stats_pending;
      delete from agent_statistics_delta;
      delete from team_statistics_delta;
      perform stats_rebuild();
    end $function$;
