// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Issue 14, leads that flow: a guest's email consent as a ledger (every opt-in and opt-out with its time
// and source, per agent and address), the unsubscribe links of guest mail (only the SHA-256 of a token
// is kept), mail that an opt-out stopped ('suppressed'), and the two-day follow-up an open house sends
// unless its agent turns it off (one per visit).

const MAIL_BEFORE = ['queued', 'sent', 'stored', 'failed', 'sending']
const MAIL_AFTER = [...MAIL_BEFORE, 'suppressed']

function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('consent_event')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('prospect_id', 'bigint', (col) => col.references('prospect.id').onDelete('set null'))
    // Lower-cased: an opt-out holds for the address however it is typed next time.
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('detail', 'text')
    .addCheckConstraint('consent_event_kind_check', oneOf('kind', ['email_opt_in', 'email_opt_out']))
    .addCheckConstraint(
      'consent_event_source_check',
      oneOf('source', ['guest_sign_in', 'one_click', 'unsubscribe_page', 'agent']),
    )
    .execute()
  await db.schema
    .createIndex('consent_event_agent_email_idx')
    .on('consent_event')
    .columns(['re_agent_id', 'email', 'kind'])
    .execute()
  await db.schema
    .createIndex('consent_event_prospect_idx')
    .on('consent_event')
    .column('prospect_id')
    .execute()

  await db.schema
    .createTable('unsubscribe_token')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('prospect_id', 'bigint', (col) => col.references('prospect.id').onDelete('set null'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('guest_follow_up')
    .addColumn('open_house_id', 'bigint', (col) =>
      col.notNull().references('open_house.id').onDelete('cascade'),
    )
    .addColumn('prospect_id', 'bigint', (col) => col.notNull().references('prospect.id').onDelete('cascade'))
    .addColumn('mail_id', 'bigint', (col) => col.references('mail.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('guest_follow_up_pkey', ['open_house_id', 'prospect_id'])
    .execute()

  await db.schema
    .alterTable('open_house')
    .addColumn('follow_up_mail_flag', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute()

  // A mail to a guest names the agent it is sent for: an opt-out from that agent stops it at send time.
  await db.schema
    .alterTable('mail')
    .addColumn('re_agent_id', 'bigint', (col) => col.references('re_agent.id').onDelete('set null'))
    .addColumn('from_name', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('headers', 'jsonb')
    .execute()
  await db.schema.alterTable('mail').dropConstraint('mail_status_check').execute()
  await db.schema
    .alterTable('mail')
    .addCheckConstraint('mail_status_check', oneOf('status', MAIL_AFTER))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('mail').set({ status: 'failed' }).where('status', '=', 'suppressed').execute()
  await db.schema.alterTable('mail').dropConstraint('mail_status_check').execute()
  await db.schema
    .alterTable('mail')
    .addCheckConstraint('mail_status_check', oneOf('status', MAIL_BEFORE))
    .execute()
  await db.schema
    .alterTable('mail')
    .dropColumn('re_agent_id')
    .dropColumn('from_name')
    .dropColumn('reply_to')
    .dropColumn('headers')
    .execute()
  await db.schema.alterTable('open_house').dropColumn('follow_up_mail_flag').execute()
  await db.schema.dropTable('guest_follow_up').execute()
  await db.schema.dropTable('unsubscribe_token').execute()
  await db.schema.dropTable('consent_event').execute()
}
