// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Teams and their members (SPEC §3 "Team", "Team member"), and the agent's own team references.

const TEAM_TYPES = ['Real Estate Team', 'Partnered Team', 'Real Estate Group', 'Market Center']

/** `column in ('a', …)` — DDL takes no bind parameters, so the labels go in as literals. */
function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('re_team')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('re_team_name', 'text', (col) => col.notNull())
    // SPEC §3/§9: always the same placeholder
    .addColumn('re_team_code', 'text', (col) => col.notNull().defaultTo('PORCHLIGHT-TEAM'))
    .addColumn('team_type', 'text', (col) => col.notNull())
    .addColumn('re_team_lead_id', 'bigint', (col) => col.notNull().references('re_agent.id'))
    .addColumn('re_co_team_lead_id', 'bigint', (col) => col.references('re_agent.id').onDelete('set null'))
    .addColumn('created_by_re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id'))
    .addColumn('re_team_active_flag', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('re_team_team_type_check', oneOf('team_type', TEAM_TYPES))
    .addCheckConstraint('re_team_co_lead_check', sql`re_co_team_lead_id <> re_team_lead_id`)
    // SPEC §8 'Team with this team type may already created by team lead or co-lead!'
    .addUniqueConstraint('re_team_re_team_lead_id_team_type_key', ['re_team_lead_id', 'team_type'])
    .execute()

  await db.schema
    .createIndex('re_team_re_co_team_lead_id_idx')
    .on('re_team')
    .column('re_co_team_lead_id')
    .execute()

  await db.schema
    .createTable('re_team_member')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('re_team_id', 'bigint', (col) => col.notNull().references('re_team.id').onDelete('cascade'))
    .addColumn('re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('re_agent_current_flag', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('added_by_re_agent_id', 'bigint', (col) => col.references('re_agent.id').onDelete('set null'))
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    // SPEC §8 'This real estate agent already part of the team.'
    .addUniqueConstraint('re_team_member_re_team_id_re_agent_id_key', ['re_team_id', 're_agent_id'])
    .execute()

  await db.schema
    .createIndex('re_team_member_re_agent_id_idx')
    .on('re_team_member')
    .column('re_agent_id')
    .execute()

  // re_agent was created before re_team existed
  await db.schema
    .alterTable('re_agent')
    .addForeignKeyConstraint(
      're_agent_re_agent_team_id_fkey',
      ['re_agent_team_id'],
      're_team',
      ['id'],
      (fk) => fk.onDelete('set null'),
    )
    .execute()
  await db.schema
    .alterTable('re_agent')
    .addForeignKeyConstraint(
      're_agent_re_agent_partnered_team_id_fkey',
      ['re_agent_partnered_team_id'],
      're_team',
      ['id'],
      (fk) => fk.onDelete('set null'),
    )
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('re_agent').dropConstraint('re_agent_re_agent_partnered_team_id_fkey').execute()
  await db.schema.alterTable('re_agent').dropConstraint('re_agent_re_agent_team_id_fkey').execute()
  await db.schema.dropTable('re_team_member').execute()
  await db.schema.dropTable('re_team').execute()
}
