// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// An outbox row the relay cannot deliver (a queue or job this build does not know) is parked with the
// reason, instead of failing every later relay batch behind it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('outbox')
    .addColumn('parked_at', 'timestamptz')
    .addColumn('parked_reason', 'text')
    .execute()
  await db.schema.dropIndex('outbox_pending_idx').execute()
  await db.schema
    .createIndex('outbox_pending_idx')
    .on('outbox')
    .column('id')
    .where(sql<boolean>`relayed_at is null and parked_at is null`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_pending_idx').execute()
  await db.schema
    .createIndex('outbox_pending_idx')
    .on('outbox')
    .column('id')
    .where(sql<boolean>`relayed_at is null`)
    .execute()
  await db.schema.alterTable('outbox').dropColumn('parked_at').dropColumn('parked_reason').execute()
}
