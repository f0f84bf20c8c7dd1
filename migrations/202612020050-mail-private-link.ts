// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import type { Kysely } from 'kysely'

// A link in a mail that opens something without a sign-in (the seller's live report) is a key: it is
// kept sealed beside the mail (`private_link`, like `unsubscribe_url`, decision 033), and the stored
// bodies hold `{{porchlight:link}}` in its place until the mail goes out. Nullable, no default: adding
// it rewrites nothing.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail').addColumn('private_link', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail').dropColumn('private_link').execute()
}
