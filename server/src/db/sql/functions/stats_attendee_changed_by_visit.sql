-- stats_attendee_changed_by_visit: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_attendee_changed_by_visit()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      agents bigint[];
      v_agent bigint[] := '{}';
      v_pid bigint[] := '{}';
      v_delta integer[] := '{}';
      v_nr boolean[] := '{}';
      no_realtor boolean;
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        -- None when it goes with its open house: the open house's trigger took its visits already.
        perform 1 from open_house where id = old.open_house_id for share;
        agents := array(select distinct x from open_house oh,
          unnest(array[oh.listing_re_agent_id, oh.hosting_re_agent_id]) x
          where oh.id = old.open_house_id and x is not null);
        v_agent := agents;
        v_pid := array_fill(old.prospect_id, array[cardinality(agents)]);
        v_delta := array_fill(-1, array[cardinality(agents)]);
        v_nr := array_fill(null::boolean, array[cardinality(agents)]);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform 1 from open_house where id = new.open_house_id for share;
        select working_with_re_agent_flag is false into no_realtor from prospect where id = new.prospect_id for share;
        agents := array(select distinct x from open_house oh,
          unnest(array[oh.listing_re_agent_id, oh.hosting_re_agent_id]) x
          where oh.id = new.open_house_id and x is not null);
        v_agent := v_agent || agents;
        v_pid := v_pid || array_fill(new.prospect_id, array[cardinality(agents)]);
        v_delta := v_delta || array_fill(1, array[cardinality(agents)]);
        v_nr := v_nr || array_fill(no_realtor, array[cardinality(agents)]);
      end if;
      perform stats_apply(v_agent, v_pid, v_delta, v_nr);
      return null;
    end $function$;
