// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Issue 14's custom questions: up to five per open house, each with a stable id, so that editing the
// list keeps the answers of unchanged questions attached. A removed question is only marked removed:
// the answers given to it still read with its wording. A visit's answers are keyed by question id.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('open_house_question')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('open_house_id', 'bigint', (col) =>
      col.notNull().references('open_house.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('question_text', 'text', (col) =>
      col.notNull().check(sql`length(question_text) between 1 and 200`),
    )
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('text', 'yesno', 'choice')`))
    .addColumn('choices', 'jsonb')
    .addColumn('removed_at', 'timestamptz')
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('open_house_question_open_house_idx')
    .on('open_house_question')
    .columns(['open_house_id', 'position'])
    .execute()
  await db.schema.alterTable('open_house_attendee').addColumn('custom_answers', 'jsonb').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('open_house_attendee').dropColumn('custom_answers').execute()
  await db.schema.dropTable('open_house_question').execute()
}
