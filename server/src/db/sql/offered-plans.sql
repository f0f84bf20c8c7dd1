-- offered-plans: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.
-- $1: true (constant)
select "id", "pricing_plan_title", "pricing_plan_currency", "pricing_plan_price_monthly", "pricing_plan_price_annual_disc_perc", "number_of_open_houses_create", "number_of_open_houses_publish", "number_of_open_houses_host", "number_of_teams_create", "number_of_team_members_per_team", "number_of_prospects_manage", "pricing_plan_feature1", "pricing_plan_feature2", "pricing_plan_feature3", "pricing_plan_feature4", "pricing_plan_feature5", "pricing_plan_feature6"
  from "pricing_plan"
  where "offered" = $1
  order by "sort_order";
