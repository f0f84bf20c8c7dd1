// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Secrets at rest (decision 033). The values are sealed by the application with SECRETS_KEY, which a
// migration cannot read; so this migration makes room and takes secrets out of the places they do not
// belong, and the worker seals every value still plain when it starts (server/src/lib/reseal.ts):
// - a sealed value is longer than the Follow Up Boss key it holds: the key's length check goes (the
//   request schema still checks it);
// - a calendar feed is found by the SHA-256 of its token (a sealed token cannot be looked up), and
//   the token itself is kept sealed so the agent can copy the same address again (decision 011);
// - a mail's unsubscribe link leaves its bodies and headers for a column of its own, sealed, and is
//   put back only as the mail goes out.
// A delivery remembers when it was last replayed: replays within a minute of it are one replay (a
// double click, 20 concurrent requests), so one conditional write lets exactly one of them through.
// And a listing's link is an http(s) address from now on (the schema refuses anything else): one
// stored before with another scheme (javascript:, data:, file:…) is no link to a listing, and goes.

/** Where a mail's unsubscribe link stands in its stored bodies and List-Unsubscribe header. */
const LINK = '{{porchlight:unsubscribe}}'

/** The sealed columns, with the column that names a row (the sealing pass walks them in its order). */
const SEALED = [
  ['webhook_endpoint', 'secret', 'id'],
  ['fub_connector', 'api_key', 're_agent_id'],
  ['calendar_feed', 'token', 're_agent_id'],
  ['mail', 'unsubscribe_url', 'id'],
] as const

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table fub_connector drop constraint if exists fub_connector_api_key_check`.execute(db)
  await sql`alter table fub_connector add constraint fub_connector_api_key_check
    check (length(api_key) between 8 and 2000)`.execute(db)

  await db.schema.alterTable('calendar_feed').addColumn('token_hash', 'text').execute()
  await sql`update calendar_feed set token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex')`.execute(
    db,
  )
  await db.schema
    .alterTable('calendar_feed')
    .alterColumn('token_hash', (col) => col.setNotNull())
    .execute()
  await db.schema
    .alterTable('calendar_feed')
    .addUniqueConstraint('calendar_feed_token_hash_key', ['token_hash'])
    .execute()
  await db.schema.alterTable('calendar_feed').dropConstraint('calendar_feed_token_key').execute()

  await db.schema.alterTable('mail').addColumn('unsubscribe_url', 'text').execute()
  await sql`
    update mail set
      unsubscribe_url = u.url,
      text_body = regexp_replace(replace(text_body, u.url, ${LINK}),
        '/api/public/unsubscribe/[A-Za-z0-9_-]+', '/api/public/unsubscribe/-', 'g'),
      html_body = regexp_replace(replace(html_body, u.url, ${LINK}),
        '/api/public/unsubscribe/[A-Za-z0-9_-]+', '/api/public/unsubscribe/-', 'g'),
      headers = jsonb_set(headers, '{List-Unsubscribe}', to_jsonb(${`<${LINK}>`}::text))
    from (
      select id, substring(headers->>'List-Unsubscribe' from '^<(.*)>$') as url
      from mail where headers ? 'List-Unsubscribe'
    ) u
    where mail.id = u.id and u.url is not null and u.url <> ${LINK}
  `.execute(db)

  await db.schema.alterTable('webhook_delivery').addColumn('replayed_at', 'timestamptz').execute()

  await sql`update open_house set listing_url = null
    where listing_url is not null and listing_url !~* '^https?://'
      and listing_url ~* '^[[:space:]]*[a-z][a-z0-9+.-]*:'`.execute(db)

  // The values still plain, for the worker's sealing pass at start: small, and empty once it ran.
  for (const [table, column, key] of SEALED) {
    await sql`create index ${sql.id(`${table}_${column}_unsealed_idx`)} on ${sql.table(table)} (${sql.ref(key)})
      where ${sql.ref(column)} not like 'sk1.%'`.execute(db)
  }
}

/**
 * Puts the columns back as they were, and a mail's link back into its bodies where it is still plain.
 * It cannot open what the application sealed (no key here): code from before this migration would read
 * sealed values as they are, so have agents re-save them (docs/secrets.md).
 */
export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of SEALED) {
    await sql`drop index if exists ${sql.id(`${table}_${column}_unsealed_idx`)}`.execute(db)
  }
  await sql`
    update mail set
      text_body = replace(text_body, ${LINK}, unsubscribe_url),
      html_body = replace(html_body, ${LINK}, unsubscribe_url),
      headers = jsonb_set(headers, '{List-Unsubscribe}', to_jsonb('<' || unsubscribe_url || '>'))
    where unsubscribe_url is not null and unsubscribe_url not like 'sk1.%' and headers ? 'List-Unsubscribe'
  `.execute(db)
  await db.schema.alterTable('webhook_delivery').dropColumn('replayed_at').execute()
  await db.schema.alterTable('mail').dropColumn('unsubscribe_url').execute()
  await db.schema
    .alterTable('calendar_feed')
    .addUniqueConstraint('calendar_feed_token_key', ['token'])
    .execute()
  await db.schema.alterTable('calendar_feed').dropColumn('token_hash').execute()
  await sql`alter table fub_connector drop constraint if exists fub_connector_api_key_check`.execute(db)
  await sql`alter table fub_connector add constraint fub_connector_api_key_check
    check (length(api_key) between 8 and 200)`.execute(db)
}
