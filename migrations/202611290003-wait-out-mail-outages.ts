// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// A mail the SMTP server could not take now waits in PostgreSQL ('waiting' until next_attempt_at) and is
// tried again over hours, instead of failing for good after BullMQ's eight attempts (about two minutes).
// waiting_for says why it waits: 'server' (no answer, or 421: it goes as soon as the server answers
// again) or 'schedule' (a temporary refusal of this mail: tried again on the schedule). 'failed' is now
// final: a permanent refusal (smtp_reply holds the server's answer), or three days of waiting.
// Mails the old rule failed in the last three days are waiting again, and go out once the server answers.

const BEFORE = ['queued', 'sent', 'stored', 'failed', 'sending', 'suppressed']
const AFTER = [...BEFORE, 'waiting']

function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('mail')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('waiting_for', 'text', (col) => col.check(oneOf('waiting_for', ['server', 'schedule'])))
    .addColumn('smtp_reply', 'text')
    .execute()
  await db.schema.alterTable('mail').dropConstraint('mail_status_check').execute()
  await db.schema.alterTable('mail').addCheckConstraint('mail_status_check', oneOf('status', AFTER)).execute()
  // Only waiting mail is in it: the sweep of due mail and the waiting figure cost the same however much
  // mail has been sent before.
  await sql`create index mail_waiting_idx on mail (next_attempt_at) include (created_at, waiting_for)
    where status = 'waiting'`.execute(db)
  await db
    .updateTable('mail')
    .set({ status: 'waiting', waiting_for: 'server', next_attempt_at: sql`now()` })
    .where('status', '=', 'failed')
    .where('created_at', '>', sql<Date>`now() - interval '3 days'`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('mail').set({ status: 'failed' }).where('status', '=', 'waiting').execute()
  await db.schema.dropIndex('mail_waiting_idx').execute()
  await db.schema.alterTable('mail').dropConstraint('mail_status_check').execute()
  await db.schema
    .alterTable('mail')
    .addCheckConstraint('mail_status_check', oneOf('status', BEFORE))
    .execute()
  await db.schema
    .alterTable('mail')
    .dropColumn('next_attempt_at')
    .dropColumn('waiting_for')
    .dropColumn('smtp_reply')
    .execute()
}
