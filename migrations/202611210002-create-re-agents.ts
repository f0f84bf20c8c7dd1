// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Real estate agent profiles (SPEC §3 "Real estate agent", §5 validation).
// re_agent_team_id / re_agent_partnered_team_id get their foreign keys in the teams migration.

const AGENT_ROLES = ['Real Estate Agent', 'Team Lead', 'Admin Team Member']
const PHONE_COUNTRIES = ['United States', 'Canada']

/** `column in ('a', …)` — DDL takes no bind parameters, so the labels go in as literals. */
function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('re_agent')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('porchlight_user_id', 'bigint', (col) =>
      col.notNull().unique().references('porchlight_user.id').onDelete('cascade'),
    )
    .addColumn('re_agent_firm_name', 'text')
    .addColumn('re_agent_first_name', 'text', (col) => col.notNull())
    .addColumn('re_agent_middle_name', 'text')
    .addColumn('re_agent_last_name', 'text', (col) => col.notNull())
    .addColumn('re_agent_email_id', 'text', (col) => col.notNull())
    .addColumn('re_agent_phone_country_code', 'text', (col) => col.notNull())
    .addColumn('re_agent_phone_number', 'text', (col) => col.notNull())
    // licensed state, license number and zip may be empty for an Admin Team Member (SPEC §5)
    .addColumn('re_agent_licensed_state', 'text')
    .addColumn('re_agent_license_number', 'text')
    .addColumn('re_agent_license_validity_flag', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('re_agent_broker_firm_name', 'text', (col) => col.notNull())
    .addColumn('re_agent_broker_firm_license', 'text', (col) => col.notNull())
    .addColumn('re_agent_date_of_birth', 'date')
    .addColumn('re_agent_residence_zip_code', 'text')
    .addColumn('re_agent_role', 'text', (col) => col.notNull())
    .addColumn('re_agent_team_id', 'bigint')
    .addColumn('re_agent_partnered_team_id', 'bigint')
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('re_agent_re_agent_role_check', oneOf('re_agent_role', AGENT_ROLES))
    .addCheckConstraint(
      're_agent_re_agent_phone_country_code_check',
      oneOf('re_agent_phone_country_code', PHONE_COUNTRIES),
    )
    // SPEC §5/§9: a number from 10000 to 99999, kept as its five digits. A regex rather than a cast,
    // because a cast of a non-number would raise instead of failing the check.
    .addCheckConstraint(
      're_agent_re_agent_residence_zip_code_check',
      sql`re_agent_residence_zip_code ~ '^[1-9][0-9]{4}$'`,
    )
    .execute()

  await db.schema
    .createIndex('re_agent_re_agent_email_id_key')
    .on('re_agent')
    .unique()
    .expression(sql`lower(re_agent_email_id)`)
    .execute()

  // team members are chosen among agents of the same broker firm (SPEC §6)
  await db.schema
    .createIndex('re_agent_re_agent_broker_firm_license_idx')
    .on('re_agent')
    .column('re_agent_broker_firm_license')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('re_agent').execute()
}
