-- claim-or-current: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.
-- $1: viewerId
-- $2: at
-- $3: id
-- $4: false (constant)
-- $5: "Hosting Myself" (constant)
-- $6: viewerId
-- $7: "Open To All" (constant)
-- $8: "Market Center" (constant)
-- $9: firmLevelId
-- $10: "Real Estate Team" (constant)
-- $11: "Real Estate Group" (constant)
-- $12: "Partnered Team" (constant)
-- $13: teamLevelIds
-- $14: "Choose Your Own (Flexi Time)" (constant)
-- $15: "Choose Your Own (Flexi Time)" (constant)
-- $16: id
with "claimed" as (update "open_house"
  set "hosting_re_agent_id" = $1, "updated_date" = $2
  where "id" = $3
  and (("open_house"."published_at" is not null
  and "open_house"."hosting_re_agent_id" is null
  and "open_house"."open_house_canceled_flag" = $4
  and "open_house"."publish_level" != $5
  and not (
  (open_house.ends_at is not null
  and open_house.ends_at < now())
  or (open_house.ends_at is null
  and open_house.scheduled_date is not null
  and open_house.scheduled_date < (now() at time zone open_house.open_house_timezone)::date)
))
  and "open_house"."listing_re_agent_id" != $6
  and ("open_house"."publish_level" = $7
  or ("open_house"."publish_level" = $8
  and "open_house"."publish_level_id" = $9)
  or ("open_house"."publish_level" in ($10, $11, $12)
  and "open_house"."publish_level_id" = any($13::text[]))))
  and "scheduled_date" is not null
  and "scheduled_start_time" != $14
  and "scheduled_end_time" != $15
  returning "id", "listing_re_agent_id", "hosting_re_agent_id", "scheduled_by_re_agent_id", "publish_level", "publish_level_id", "published_at", "open_house_canceled_flag", "scheduled_date", "scheduled_start_time", "scheduled_end_time")
  select "claimed".*, true as "won"
  from "claimed"
  union all
  select "id", "listing_re_agent_id", "hosting_re_agent_id", "scheduled_by_re_agent_id", "publish_level", "publish_level_id", "published_at", "open_house_canceled_flag", "scheduled_date", "scheduled_start_time", "scheduled_end_time", false as "won"
  from "open_house"
  where "open_house"."id" = $16
  and not exists (select "claimed"."id"
  from "claimed");
