// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import type { Kysely } from 'kysely'

// The offered pricing plans. 999999 means Unlimited (SPEC §9); create and publish counts are per year.

const UNLIMITED = 999999

const PLANS = [
  {
    pricing_plan_title: 'Solo',
    pricing_plan_currency: 'USD',
    pricing_plan_price_monthly: '0.00',
    pricing_plan_price_annual_disc_perc: '0.00',
    number_of_open_houses_create: 24,
    number_of_open_houses_publish: 12,
    number_of_open_houses_host: UNLIMITED,
    number_of_teams_create: 0,
    number_of_team_members_per_team: 0,
    number_of_prospects_manage: UNLIMITED,
    pricing_plan_feature1: 'Always free for solo agents',
    pricing_plan_feature2: 'Schedule up to 24 open houses a year',
    pricing_plan_feature3: 'Publish up to 12 open house opportunities a year',
    pricing_plan_feature4: 'Host and claim unlimited open houses',
    pricing_plan_feature5: 'Unlimited leads from QR code guest sign-in',
    pricing_plan_feature6: 'Visitor feedback and rating summaries',
    sort_order: 1,
  },
  {
    pricing_plan_title: 'Team',
    pricing_plan_currency: 'USD',
    pricing_plan_price_monthly: '29.99',
    pricing_plan_price_annual_disc_perc: '10.00',
    number_of_open_houses_create: 240,
    number_of_open_houses_publish: 120,
    number_of_open_houses_host: UNLIMITED,
    number_of_teams_create: 3,
    number_of_team_members_per_team: 10,
    number_of_prospects_manage: UNLIMITED,
    pricing_plan_feature1: 'Everything in Solo',
    pricing_plan_feature2: 'Schedule up to 240 open houses a year',
    pricing_plan_feature3: 'Publish up to 120 open house opportunities a year',
    pricing_plan_feature4: 'Create up to 3 teams of up to 10 members each',
    pricing_plan_feature5: 'Publish to your teams: the first member to claim hosts',
    pricing_plan_feature6: 'Team dashboard with open house and lead statistics',
    sort_order: 2,
  },
  {
    pricing_plan_title: 'Brokerage',
    pricing_plan_currency: 'USD',
    pricing_plan_price_monthly: '99.00',
    pricing_plan_price_annual_disc_perc: '15.00',
    number_of_open_houses_create: UNLIMITED,
    number_of_open_houses_publish: UNLIMITED,
    number_of_open_houses_host: UNLIMITED,
    number_of_teams_create: 20,
    number_of_team_members_per_team: UNLIMITED,
    number_of_prospects_manage: UNLIMITED,
    pricing_plan_feature1: 'Everything in Team',
    pricing_plan_feature2: 'Unlimited open houses',
    pricing_plan_feature3: 'Unlimited open house publishing',
    pricing_plan_feature4: 'Create up to 20 teams with unlimited members',
    pricing_plan_feature5: 'Offer open houses to your whole Market Center',
    pricing_plan_feature6: 'Brokerage-wide hosting and attendee reports',
    sort_order: 3,
  },
]

export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('pricing_plan').values(PLANS).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('pricing_plan')
    .where(
      'pricing_plan_title',
      'in',
      PLANS.map((plan) => plan.pricing_plan_title),
    )
    .execute()
}
