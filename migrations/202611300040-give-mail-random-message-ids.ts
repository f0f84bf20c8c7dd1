// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// A mail's Message-ID was `<mail-{id}@host>`: two databases (staging and production, or one restored
// from a backup) gave different mails the same Message-ID, and receiving servers and mail clients
// dropped or threaded them as one (RFC 5322 §3.6.4 wants it unique worldwide). Each new mail now gets a
// random key when it is written, kept with the row so a resend of the same mail carries the same ID.
// The default is set after the column is added: mails already written keep no key (and their old ID),
// and the table is not rewritten.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail').addColumn('message_key', 'uuid').execute()
  await sql`alter table mail alter column message_key set default gen_random_uuid()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail').dropColumn('message_key').execute()
}
