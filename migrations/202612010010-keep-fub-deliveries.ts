// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Follow Up Boss deliveries kept in PostgreSQL (decision 041). A sign-in's event was a BullMQ job alone:
// retried 8 times in two minutes, then dropped without a word, and posted twice when Redis lost a job
// mid-attempt. Each event is now a row claimed with a lease for one attempt (as webhook deliveries are),
// waiting here for hours when Follow Up Boss is down and for a new key when it refuses the one it has.
// The connector keeps what went wrong last, and whether the agent was told its key was refused.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fub_delivery')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('event', 'jsonb', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'sending', 'delivered', 'ignored', 'failed')`),
    )
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('lease_until', 'timestamptz')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('response_status', 'integer')
    .addColumn('last_error', 'text')
    // An outbox job of the earlier shape (the event in the job) becomes one row, however often it runs.
    .addColumn('legacy_job', 'text', (col) => col.unique())
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
  // The connector's count of leads waiting, and the retry that sends them, read only unfinished rows.
  await db.schema
    .createIndex('fub_delivery_waiting_idx')
    .on('fub_delivery')
    .column('re_agent_id')
    .where(sql.ref('status'), 'in', sql`('pending', 'sending', 'failed')`)
    .execute()

  await db.schema
    .alterTable('fub_connector')
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('ok').check(sql`status in ('ok', 'failing', 'rejected')`),
    )
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'timestamptz')
    .addColumn('rejection_told', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('fub_connector')
    .dropColumn('status')
    .dropColumn('last_error')
    .dropColumn('last_error_at')
    .dropColumn('rejection_told')
    .execute()
  await db.schema.dropTable('fub_delivery').execute()
}
