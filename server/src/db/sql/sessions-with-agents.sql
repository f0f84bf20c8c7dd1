-- sessions-with-agents: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.
-- $1: ids
select "re_agent".*, "session"."id" as "session_id", "session"."user_id" as "session_user_id", "session"."expires_at" as "session_expires_at", "session"."recovery" as "session_recovery", case when "re_agent"."firm_membership_status" = 'verified' then (
  select coalesce(json_agg(json_build_array(teams.team_id, teams.leads, teams.member, teams.person_id)), '[]')
  from (
        -- The agent's teams found through three indexes (lead, co-lead, membership), not one pass over
        -- every team: at 10,000 teams, 2.7 ms for 200 agents where that pass took 190 ms.
        with mine as (
          select t.id, bool_or(l.leads) as leads, bool_or(not l.leads) as member
          from (
            select t.id, true as leads from re_team t where t.re_team_lead_id = "re_agent"."id"
            union all
            select t.id, true from re_team t where t.re_co_team_lead_id = "re_agent"."id"
            union all
            select m.re_team_id, false from re_team_member m
              where m.re_agent_id = "re_agent"."id" and m.invitation_status = 'accepted' and m.re_agent_current_flag
          ) l
          join re_team t on t.id = l.id and t.re_team_active_flag
          group by t.id
        ), people as (
          select t.id as team_id, p.person_id
          from mine t
          join re_team rt on rt.id = t.id
          cross join lateral (
            select rt.re_team_lead_id as person_id
            union select rt.re_co_team_lead_id where rt.re_co_team_lead_id is not null
            union select m.re_agent_id from re_team_member m
              where m.re_team_id = rt.id and m.invitation_status = 'accepted' and m.re_agent_current_flag
          ) p
        )
        select mine.id as team_id, mine.leads, mine.member, a.id as person_id
        from mine
        left join people on people.team_id = mine.id
        left join re_agent a on a.id = people.person_id and a.firm_membership_status = 'verified'
  and a.re_agent_broker_firm_license = "re_agent"."re_agent_broker_firm_license") teams
  ) end as "actor_teams"
  from "session"
  left
  join "re_agent" on "re_agent"."porchlight_user_id" = "session"."user_id"
  where session.id = any($1);
