-- open-house-for-sign-in: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.
-- $1: id
select "id", "listing_re_agent_id", "hosting_re_agent_id", "open_house_canceled_flag", "published_at", "scheduled_by_re_agent_id", "ends_at", (
  select coalesce(json_agg(i), '[]')
  from (
  select id, re_agent_id, events, team_id
  from agent_integrations(array_remove(array[open_house.listing_re_agent_id, open_house.hosting_re_agent_id], null)::bigint[])
  ) i
) as "integrations"
  from "open_house"
  where "id" = $1;
