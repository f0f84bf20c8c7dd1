// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Delayed outbox jobs (auto-clone runs when an open house ends) and one auto-clone per open house.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('run_at', 'timestamptz').execute()
  await db.schema
    .alterTable('open_house')
    .addColumn('auto_clone_of_open_house_id', 'bigint', (c) =>
      c.references('open_house.id').onDelete('set null'),
    )
    .execute()
  await sql`create unique index open_house_auto_clone_of_uniq on open_house (auto_clone_of_open_house_id)`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists open_house_auto_clone_of_uniq`.execute(db)
  await db.schema.alterTable('open_house').dropColumn('auto_clone_of_open_house_id').execute()
  await db.schema.alterTable('outbox').dropColumn('run_at').execute()
}
