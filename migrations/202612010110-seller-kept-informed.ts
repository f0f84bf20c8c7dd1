// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// The seller kept informed (issue 34, decision 051): a seller report link may carry the seller's email,
// who gets one mail when the open house ends. A new link's token is kept sealed beside its hash so that
// mail can carry the live link. `seller_report_mail` takes the mail once per link and open house and
// keeps the hash of the mail's one-click unsubscribe token.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('seller_report_link')
    .addColumn('token', 'text')
    .addColumn('seller_email', 'text')
    .addColumn('seller_unsubscribed_at', 'timestamptz')
    .execute()
  await db.schema
    .createTable('seller_report_mail')
    .addColumn('link_id', 'bigint', (col) =>
      col.notNull().references('seller_report_link.id').onDelete('cascade'),
    )
    .addColumn('open_house_id', 'bigint', (col) =>
      col.notNull().references('open_house.id').onDelete('cascade'),
    )
    .addColumn('mail_id', 'bigint', (col) => col.references('mail.id').onDelete('set null'))
    .addColumn('unsubscribe_token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('seller_report_mail_pkey', ['link_id', 'open_house_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('seller_report_mail').execute()
  await db.schema
    .alterTable('seller_report_link')
    .dropColumn('seller_unsubscribed_at')
    .dropColumn('seller_email')
    .dropColumn('token')
    .execute()
}
