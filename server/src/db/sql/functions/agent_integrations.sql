-- agent_integrations: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.agent_integrations(agent_ids bigint[])
 RETURNS TABLE(id bigint, re_agent_id bigint, events text[], team_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
    begin
      return query
        select e.id, e.re_agent_id, e.events, null::bigint from webhook_endpoint e
          where e.re_agent_id = any(agent_ids) and e.disabled_at is null and e.team_id is null
        union all
        select e.id, people.agent_id, e.events, e.team_id
          from (
            select t.id as team_id, t.re_team_lead_id as agent_id from re_team t
              where t.re_team_lead_id = any(agent_ids) and t.re_team_active_flag
            union
            select t.id, t.re_co_team_lead_id from re_team t
              where t.re_co_team_lead_id = any(agent_ids) and t.re_team_active_flag
            union
            select m.re_team_id, m.re_agent_id from re_team_member m
              join re_team t on t.id = m.re_team_id and t.re_team_active_flag
              where m.re_agent_id = any(agent_ids)
                and m.invitation_status = 'accepted' and m.re_agent_current_flag
          ) people
          join re_agent a on a.id = people.agent_id and a.firm_membership_status = 'verified'
          join webhook_endpoint e on e.team_id = people.team_id and e.disabled_at is null
        union all
        select null::bigint, f.re_agent_id, null::text[], null::bigint from fub_connector f
          where f.re_agent_id = any(agent_ids);
    end $function$;
