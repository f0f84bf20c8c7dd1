// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Two private links of issue 14: the seller's report of an open house (only the SHA-256 of its token is
// kept; expiring, revocable) and an agent's iCalendar feed (one per agent; its token is kept, because
// the agent copies the same address again and again, as calendar apps subscribe to it once).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('seller_report_link')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('open_house_id', 'bigint', (col) =>
      col.notNull().references('open_house.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_by_re_agent_id', 'bigint', (col) =>
      col.notNull().references('re_agent.id').onDelete('cascade'),
    )
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('seller_report_link_open_house_idx')
    .on('seller_report_link')
    .columns(['open_house_id', 'expires_at'])
    .where(sql.ref('revoked_at'), 'is', null)
    .execute()
  await db.schema
    .createTable('calendar_feed')
    .addColumn('re_agent_id', 'bigint', (col) =>
      col.primaryKey().references('re_agent.id').onDelete('cascade'),
    )
    .addColumn('token', 'text', (col) => col.notNull().unique())
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feed').execute()
  await db.schema.dropTable('seller_report_link').execute()
}
