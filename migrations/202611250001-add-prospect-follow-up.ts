// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// The prospect list as a small CRM: where the agent stands with each lead (a stage), the date of its
// next follow-up, and the agent's dated notes. The follow-up index serves the dashboard's "follow-ups due".

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('prospect')
    .addColumn('prospect_stage', 'text', (col) =>
      col
        .notNull()
        .defaultTo('New')
        .check(sql`prospect_stage in ('New', 'Contacted', 'Nurturing', 'Client', 'Closed')`),
    )
    .addColumn('next_follow_up_date', 'date')
    .execute()
  await db.schema
    .createIndex('prospect_agent_follow_up_idx')
    .on('prospect')
    .columns(['created_by_re_agent_id', 'next_follow_up_date'])
    .where(sql.ref('next_follow_up_date'), 'is not', null)
    .execute()
  await db.schema
    .createTable('prospect_note')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('prospect_id', 'bigint', (col) => col.notNull().references('prospect.id').onDelete('cascade'))
    .addColumn('re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('note_text', 'text', (col) => col.notNull().check(sql`length(note_text) between 1 and 2000`))
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('prospect_note_prospect_idx')
    .on('prospect_note')
    .expression(sql`prospect_id, created_date desc, id desc`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('prospect_note').execute()
  await db.schema.dropIndex('prospect_agent_follow_up_idx').execute()
  await db.schema
    .alterTable('prospect')
    .dropColumn('prospect_stage')
    .dropColumn('next_follow_up_date')
    .execute()
}
