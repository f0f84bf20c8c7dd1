// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Pricing plans and the plans agents bought (SPEC §3 "Pricing plan", "Plan purchase"; §9).

const PLAN_FREQUENCIES = ['Monthly', 'Yearly']

/** `column in ('a', …)` — DDL takes no bind parameters, so the labels go in as literals. */
function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

const LIMIT_COLUMNS = [
  'number_of_open_houses_create',
  'number_of_open_houses_publish',
  'number_of_open_houses_host',
  'number_of_teams_create',
  'number_of_team_members_per_team',
  'number_of_prospects_manage',
]

export async function up(db: Kysely<any>): Promise<void> {
  let plan = db.schema
    .createTable('pricing_plan')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('pricing_plan_title', 'text', (col) => col.notNull().unique())
    .addColumn('pricing_plan_currency', 'text', (col) => col.notNull().defaultTo('USD'))
    .addColumn('pricing_plan_price_monthly', 'numeric(10, 2)', (col) => col.notNull())
    .addColumn('pricing_plan_price_annual_disc_perc', 'numeric(5, 2)', (col) => col.notNull().defaultTo(0))
    .addCheckConstraint('pricing_plan_pricing_plan_price_monthly_check', sql`pricing_plan_price_monthly >= 0`)
    .addCheckConstraint(
      'pricing_plan_pricing_plan_price_annual_disc_perc_check',
      sql`pricing_plan_price_annual_disc_perc between 0 and 100`,
    )
    .addCheckConstraint('pricing_plan_pricing_plan_currency_check', sql`pricing_plan_currency ~ '^[A-Z]{3}$'`)
  // per year for creating and publishing open houses (SPEC §9); 999999 = Unlimited
  for (const column of LIMIT_COLUMNS) {
    plan = plan
      .addColumn(column, 'integer', (col) => col.notNull())
      .addCheckConstraint(`pricing_plan_${column}_check`, sql`${sql.ref(column)} >= 0`)
  }
  for (const n of [1, 2, 3, 4, 5, 6]) {
    plan = plan.addColumn(`pricing_plan_feature${n}`, 'text')
  }
  await plan
    .addColumn('offered', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('pricing_plan_purchase')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('pricing_plan_id', 'bigint', (col) => col.notNull().references('pricing_plan.id'))
    .addColumn('re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('pricing_plan_frequency', 'text', (col) => col.notNull())
    .addColumn('pricing_plan_start_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    // start + 30 days (Monthly) or 365 days (Yearly), SPEC §9
    .addColumn('pricing_plan_end_date', 'timestamptz', (col) => col.notNull())
    .addColumn('total_receivable', 'numeric(10, 2)', (col) => col.notNull().defaultTo(0))
    .addColumn('total_paid', 'numeric(10, 2)', (col) => col.notNull().defaultTo(0))
    .addColumn('auto_renew', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('pricing_plan_active_flag', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'pricing_plan_purchase_pricing_plan_frequency_check',
      oneOf('pricing_plan_frequency', PLAN_FREQUENCIES),
    )
    .addCheckConstraint(
      'pricing_plan_purchase_dates_check',
      sql`pricing_plan_end_date > pricing_plan_start_date`,
    )
    .addCheckConstraint('pricing_plan_purchase_amounts_check', sql`total_receivable >= 0 and total_paid >= 0`)
    .execute()

  await db.schema
    .createIndex('pricing_plan_purchase_re_agent_id_active_idx')
    .on('pricing_plan_purchase')
    .column('re_agent_id')
    .where(sql<boolean>`pricing_plan_active_flag`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pricing_plan_purchase').execute()
  await db.schema.dropTable('pricing_plan').execute()
}
