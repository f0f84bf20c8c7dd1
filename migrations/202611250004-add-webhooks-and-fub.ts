// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Outgoing webhooks: an agent's endpoints (URL, events, the signing secret), one delivery per event and
// endpoint with the outcome of its last attempt (the delivery log), and the Follow Up Boss connector's
// API key. Attempts are outbox rows: a retry waits in PostgreSQL (run_at), never for hours in Redis.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoint')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('url', 'text', (col) => col.notNull().check(sql`length(url) between 8 and 2000`))
    .addColumn('description', 'text', (col) => col.check(sql`length(description) <= 200`))
    .addColumn('events', sql`text[]`, (col) => col.notNull())
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('failing_since', 'timestamptz')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
  // The events' hot path (a guest sign-in) asks: which of these agents listen for this event?
  await db.schema
    .createIndex('webhook_endpoint_agent_idx')
    .on('webhook_endpoint')
    .column('re_agent_id')
    .where(sql.ref('disabled_at'), 'is', null)
    .execute()

  await db.schema
    .createTable('webhook_delivery')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('endpoint_id', 'bigint', (col) =>
      col.notNull().references('webhook_endpoint.id').onDelete('cascade'),
    )
    .addColumn('message_id', 'text', (col) => col.notNull().unique())
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('payload', 'jsonb', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('pending').check(sql`status in ('pending', 'sending', 'succeeded', 'failed')`),
    )
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('lease_until', 'timestamptz')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('response_status', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('response_excerpt', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_attempt_at', 'timestamptz')
    .execute()
  await db.schema
    .createIndex('webhook_delivery_endpoint_idx')
    .on('webhook_delivery')
    .expression(sql`endpoint_id, id desc`)
    .execute()

  await db.schema
    .createTable('fub_connector')
    .addColumn('re_agent_id', 'bigint', (col) =>
      col.primaryKey().references('re_agent.id').onDelete('cascade'),
    )
    .addColumn('api_key', 'text', (col) => col.notNull().check(sql`length(api_key) between 8 and 200`))
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fub_connector').execute()
  await db.schema.dropTable('webhook_delivery').execute()
  await db.schema.dropTable('webhook_endpoint').execute()
}
