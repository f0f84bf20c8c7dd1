// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Web Push for agents (issue 34, decision 050): the browsers' subscriptions, each agent's choice of
// events and quiet hours, one row per push to one subscription (sent by the push queue through the
// outbox, its payload sealed as it holds a claim capability), and the claim capabilities themselves,
// kept only as hashes.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('push_subscription')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('re_agent_id', 'bigint', (c) => c.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_date', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_success_at', 'timestamptz')
    .execute()
  await db.schema
    .createIndex('push_subscription_agent')
    .on('push_subscription')
    .column('re_agent_id')
    .execute()

  await db.schema
    .createTable('notification_setting')
    .addColumn('re_agent_id', 'bigint', (c) => c.primaryKey().references('re_agent.id').onDelete('cascade'))
    .addColumn('events', sql`text[]`, (c) => c.notNull())
    .addColumn('quiet_start', 'text')
    .addColumn('quiet_end', 'text')
    .addColumn('time_zone', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('push_message')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('subscription_id', 'bigint', (c) =>
      c.notNull().references('push_subscription.id').onDelete('cascade'),
    )
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('open_house_id', 'bigint')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('ttl_seconds', 'integer', (c) => c.notNull())
    .addColumn('urgency', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_date', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('push_message_subscription')
    .on('push_message')
    .column('subscription_id')
    .execute()

  await db.schema
    .createTable('push_claim_token')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('re_agent_id', 'bigint', (c) => c.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('open_house_id', 'bigint', (c) => c.notNull().references('open_house.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_date', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('push_claim_token_open_house')
    .on('push_claim_token')
    .column('open_house_id')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_claim_token').execute()
  await db.schema.dropTable('push_message').execute()
  await db.schema.dropTable('notification_setting').execute()
  await db.schema.dropTable('push_subscription').execute()
}
