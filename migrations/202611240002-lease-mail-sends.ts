// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// A mail is sent without holding a transaction across the SMTP exchange: a worker claims the row with a
// lease ('sending' until lease_until), sends, then marks it sent. A lease that runs out (the worker died)
// lets another worker take the mail over.

const BEFORE = ['queued', 'sent', 'stored', 'failed']
const AFTER = [...BEFORE, 'sending']

function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail').addColumn('lease_until', 'timestamptz').execute()
  await db.schema.alterTable('mail').dropConstraint('mail_status_check').execute()
  await db.schema.alterTable('mail').addCheckConstraint('mail_status_check', oneOf('status', AFTER)).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('mail').set({ status: 'queued' }).where('status', '=', 'sending').execute()
  await db.schema.alterTable('mail').dropConstraint('mail_status_check').execute()
  await db.schema
    .alterTable('mail')
    .addCheckConstraint('mail_status_check', oneOf('status', BEFORE))
    .execute()
  await db.schema.alterTable('mail').dropColumn('lease_until').execute()
}
