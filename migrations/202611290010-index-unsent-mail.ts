// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Mail not sent yet ('queued', or 'sending' under a lease): the sweep finds mail whose job was lost
// (mail/retries.ts) by this small index, however much mail has been sent before.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index mail_unsent_idx on mail (id) include (created_at, next_attempt_at, lease_until)
    where status in ('queued', 'sending')`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_unsent_idx').execute()
}
