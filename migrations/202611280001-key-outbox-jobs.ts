// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// An outbox row's BullMQ job was named after the row's id alone. BullMQ keeps a completed job for a
// week and takes adding a job under a name it holds as a no-op; a database restored from a backup, or
// made anew, against the same Redis counts its ids again from where it stood, so its new rows were
// named like jobs already done: they were never run, and their mails never sent. A random key per
// row now goes into the name. Rows written before keep none (their jobs keep the names they have in
// Redis); the column is added without a default first, so the table is not rewritten.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('job_key', 'uuid').execute()
  await db.schema
    .alterTable('outbox')
    .alterColumn('job_key', (col) => col.setDefault(sql`gen_random_uuid()`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('job_key').execute()
}
