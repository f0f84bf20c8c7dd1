// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// User accounts (SPEC §3 "User account"), their sessions and their one-time email codes (DESIGN "Auth").

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('porchlight_user')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('porchlight_user_email_id', 'text', (col) => col.notNull())
    // argon2id hash string, never the password itself
    .addColumn('porchlight_user_pass', 'text', (col) => col.notNull())
    .addColumn('user_enabled', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()

  // citext is not available everywhere we run (PGlite), so emails are unique case-insensitively by index.
  await db.schema
    .createIndex('porchlight_user_email_id_key')
    .on('porchlight_user')
    .unique()
    .expression(sql`lower(porchlight_user_email_id)`)
    .execute()

  await db.schema
    .createTable('session')
    // hex SHA-256 of the session token; the token itself is never stored
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) =>
      col.notNull().references('porchlight_user.id').onDelete('cascade'),
    )
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema.createIndex('session_user_id_idx').on('session').column('user_id').execute()

  await db.schema
    .createTable('email_code')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('user_id', 'bigint', (col) =>
      col.notNull().references('porchlight_user.id').onDelete('cascade'),
    )
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('email_code_purpose_check', sql`purpose in ('verify_email', 'temp_password')`)
    .addCheckConstraint('email_code_attempts_check', sql`attempts >= 0`)
    .execute()

  await db.schema
    .createIndex('email_code_user_id_purpose_idx')
    .on('email_code')
    .columns(['user_id', 'purpose'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_code').execute()
  await db.schema.dropTable('session').execute()
  await db.schema.dropTable('porchlight_user').execute()
}
