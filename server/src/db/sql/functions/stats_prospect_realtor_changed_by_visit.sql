-- stats_prospect_realtor_changed_by_visit: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_prospect_realtor_changed_by_visit()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      who bigint;
      was_without boolean := old.working_with_re_agent_flag is false;
      now_without boolean := new.working_with_re_agent_flag is false;
      d bigint := now_without::int - was_without::int;
    begin
      if d = 0 then return null; end if; -- yes to not said and back: neither is "without a realtor"
      perform pg_advisory_xact_lock_shared(4611686018427387904::bigint + a)
      from (select re_agent_id as a from agent_visitor where prospect_id = new.id order by 1) agents;
      for who in select re_agent_id from agent_visitor where prospect_id = new.id order by 1 loop
        perform stats_bump(who, 0, 0, 0, 0, d);
        update agent_visitor set without_realtor = now_without
        where re_agent_id = who and prospect_id = new.id;
      end loop;
      for who in select re_team_id from team_visitor where prospect_id = new.id order by 1 loop
        perform stats_team_bump(who, 0, d);
        update team_visitor set without_realtor = now_without
        where re_team_id = who and prospect_id = new.id;
      end loop;
      return null;
    end $function$;
