// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// A change of the sign-in email takes effect only once a code mailed to the new address is entered:
// the code row carries the address it confirms.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('email_code').addColumn('new_email', 'text').execute()
  await db.schema.alterTable('email_code').dropConstraint('email_code_purpose_check').execute()
  await db.schema
    .alterTable('email_code')
    .addCheckConstraint(
      'email_code_purpose_check',
      sql`purpose in ('verify_email', 'temp_password', 'change_email')`,
    )
    .execute()
  await db.schema
    .alterTable('email_code')
    .addCheckConstraint(
      'email_code_new_email_check',
      sql`(purpose = 'change_email') = (new_email is not null)`,
    )
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('email_code').where('purpose', '=', 'change_email').execute()
  await db.schema.alterTable('email_code').dropConstraint('email_code_new_email_check').execute()
  await db.schema.alterTable('email_code').dropConstraint('email_code_purpose_check').execute()
  await db.schema
    .alterTable('email_code')
    .addCheckConstraint('email_code_purpose_check', sql`purpose in ('verify_email', 'temp_password')`)
    .execute()
  await db.schema.alterTable('email_code').dropColumn('new_email').execute()
}
