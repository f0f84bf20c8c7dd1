-- stats_open_house_changed_by_visit: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_open_house_changed_by_visit()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      r record;
      old_agents bigint[] := '{}';
      new_agents bigint[] := '{}';
      v_agent bigint[] := '{}';
      v_pid bigint[] := '{}';
      v_delta integer[] := '{}';
      v_nr boolean[] := '{}';
    begin
      if tg_op = 'DELETE' then
        -- Its visits go first, while the open house still names its agents (the cascade would find none).
        delete from open_house_attendee where open_house_id = old.id;
      end if;
      if tg_op = 'UPDATE' and old.listing_re_agent_id = new.listing_re_agent_id
        and old.hosting_re_agent_id is not distinct from new.hosting_re_agent_id
        and old.open_house_canceled_flag = new.open_house_canceled_flag then
        return old;
      end if;
      if tg_op <> 'INSERT' then
        old_agents := array(select distinct x from unnest(array[old.listing_re_agent_id,
          old.hosting_re_agent_id]) x where x is not null);
      end if;
      if tg_op <> 'DELETE' then
        new_agents := array(select distinct x from unnest(array[new.listing_re_agent_id,
          new.hosting_re_agent_id]) x where x is not null);
      end if;
      if tg_op = 'UPDATE' and not (old_agents @> new_agents and new_agents @> old_agents) then
        -- Its visitors' realtor answers are read as committed (see the locks above).
        perform 1 from prospect p join open_house_attendee a on a.prospect_id = p.id
        where a.open_house_id = new.id order by p.id for share of p;
      end if;
      for r in
        select agent, sum(listed) as listed, sum(hosted) as hosted, sum(canceled) as canceled,
          sum(visits)::int as visits
        from (
          select old.listing_re_agent_id, -1, 0, -(old.open_house_canceled_flag::int), 0
            where tg_op <> 'INSERT'
          union all
          select old.hosting_re_agent_id, 0, -((not old.open_house_canceled_flag)::int), 0, 0
            where tg_op <> 'INSERT' and old.hosting_re_agent_id is not null
          union all
          select new.listing_re_agent_id, 1, 0, new.open_house_canceled_flag::int, 0
            where tg_op <> 'DELETE'
          union all
          select new.hosting_re_agent_id, 0, (not new.open_house_canceled_flag)::int, 0, 0
            where tg_op <> 'DELETE' and new.hosting_re_agent_id is not null
          union all
          select x, 0, 0, 0, -1 from unnest(old_agents) x where x <> all(new_agents)
          union all
          select x, 0, 0, 0, 1 from unnest(new_agents) x where x <> all(old_agents)
        ) d(agent, listed, hosted, canceled, visits)
        group by agent order by agent
      loop
        -- Every agent's statistics row, in ascending id, before any visitor row.
        perform stats_bump(r.agent, r.listed, r.hosted, r.canceled, 0, 0);
        if r.visits <> 0 and tg_op = 'UPDATE' then
          -- A claim, a withdrawal, a new listing agent: the open house's visits go with it.
          select v_agent || array_agg(r.agent), v_pid || array_agg(a.prospect_id),
            v_delta || array_agg(r.visits), v_nr || array_agg(p.working_with_re_agent_flag is false)
          into v_agent, v_pid, v_delta, v_nr
          from (select a.prospect_id from open_house_attendee a where a.open_house_id = new.id) a
          join prospect p on p.id = a.prospect_id;
          v_agent := coalesce(v_agent, '{}'); v_pid := coalesce(v_pid, '{}');
          v_delta := coalesce(v_delta, '{}'); v_nr := coalesce(v_nr, '{}');
        end if;
      end loop;
      if cardinality(v_agent) > 0 then
        perform stats_apply(v_agent, v_pid, v_delta, v_nr);
      end if;
      return old; -- lets a delete go on (BEFORE); ignored after an insert or update
    end $function$;
