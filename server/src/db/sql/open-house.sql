-- open-house: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.
-- $1: id
select "id", "listing_re_agent_id", "hosting_re_agent_id", "open_house_canceled_flag", "published_at", "scheduled_by_re_agent_id", "ends_at"
  from "open_house"
  where "id" = $1;
