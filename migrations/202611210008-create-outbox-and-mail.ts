// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// The transactional outbox relayed into BullMQ, and the mail log (DESIGN "Jobs", "Running":
// without SMTP_URL mail is kept here and shown at /dev/mailbox).

const MAIL_STATUSES = ['queued', 'sent', 'stored', 'failed']

/** `column in ('a', …)` — DDL takes no bind parameters, so the labels go in as literals. */
function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('outbox')
    // also the BullMQ job id, so a relay retry never enqueues twice
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('queue', 'text', (col) => col.notNull())
    .addColumn('job_name', 'text', (col) => col.notNull())
    .addColumn('payload', 'jsonb', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('relayed_at', 'timestamptz')
    .execute()

  await db.schema
    .createIndex('outbox_pending_idx')
    .on('outbox')
    .column('id')
    .where(sql<boolean>`relayed_at is null`)
    .execute()

  await db.schema
    .createTable('mail')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('to_address', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('text_body', 'text', (col) => col.notNull())
    .addColumn('html_body', 'text', (col) => col.notNull())
    .addColumn('attachments', 'jsonb')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('queued'))
    .addColumn('smtp_message_id', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('mail_status_check', oneOf('status', MAIL_STATUSES))
    .execute()

  await db.schema.createIndex('mail_to_address_idx').on('mail').column('to_address').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail').execute()
  await db.schema.dropTable('outbox').execute()
}
