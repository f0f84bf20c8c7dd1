-- stats_open_house_changed: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_open_house_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare r record;
    begin
      if tg_op = 'DELETE' then
        delete from open_house_attendee where open_house_id = old.id;
      end if;
      if tg_op = 'UPDATE' and old.listing_re_agent_id = new.listing_re_agent_id
        and old.hosting_re_agent_id is not distinct from new.hosting_re_agent_id
        and old.open_house_canceled_flag = new.open_house_canceled_flag then
        return old;
      end if;
      if tg_op = 'UPDATE' and (old.listing_re_agent_id <> new.listing_re_agent_id
        or old.hosting_re_agent_id is distinct from new.hosting_re_agent_id) then
        insert into stats_pending (open_house_id) values (new.id);
      end if;
      for r in
        select agent, sum(listed) as listed, sum(hosted) as hosted, sum(canceled) as canceled
        from (
          select old.listing_re_agent_id, -1, 0, -(old.open_house_canceled_flag::int)
            where tg_op <> 'INSERT'
          union all
          select old.hosting_re_agent_id, 0, -((not old.open_house_canceled_flag)::int), 0
            where tg_op <> 'INSERT' and old.hosting_re_agent_id is not null
          union all
          select new.listing_re_agent_id, 1, 0, new.open_house_canceled_flag::int
            where tg_op <> 'DELETE'
          union all
          select new.hosting_re_agent_id, 0, (not new.open_house_canceled_flag)::int, 0
            where tg_op <> 'DELETE' and new.hosting_re_agent_id is not null
        ) d(agent, listed, hosted, canceled)
        group by agent order by agent
      loop
        if r.listed <> 0 or r.hosted <> 0 or r.canceled <> 0 then
          perform stats_bump(r.agent, r.listed, r.hosted, r.canceled, 0, 0);
        end if;
      end loop;
      return old; -- lets a delete go on (BEFORE); ignored after an insert or update
    end $function$;
