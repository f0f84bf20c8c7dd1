// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// PostgreSQL is the record of what is still to do. An outbox row is done when its job's effect happened
// (the worker marks it), or failed once BullMQ gave up on it; until then the relay hands it to BullMQ
// again from time to time (same job id, so a job Redis still holds is not added twice). A Redis that
// restarts empty so loses no work. Rows relayed before this change were handed over under the old rule
// and count as done.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('outbox')
    .addColumn('done_at', 'timestamptz')
    .addColumn('failed_at', 'timestamptz')
    .addColumn('failed_reason', 'text')
    .execute()
  await db
    .updateTable('outbox')
    .set({ done_at: sql`relayed_at` })
    .where('relayed_at', 'is not', null)
    .execute()
  await db.schema.dropIndex('outbox_pending_idx').execute()
  await db.schema
    .createIndex('outbox_open_idx')
    .on('outbox')
    .column('id')
    .where(sql<boolean>`done_at is null and failed_at is null and parked_at is null`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_open_idx').execute()
  await db.schema
    .createIndex('outbox_pending_idx')
    .on('outbox')
    .column('id')
    .where(sql<boolean>`relayed_at is null and parked_at is null`)
    .execute()
  await db.schema
    .alterTable('outbox')
    .dropColumn('done_at')
    .dropColumn('failed_at')
    .dropColumn('failed_reason')
    .execute()
}
