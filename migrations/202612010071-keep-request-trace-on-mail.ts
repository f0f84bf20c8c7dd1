// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import type { Kysely } from 'kysely'

// A sign-in's thank-you has no send job of its own: the worker gathers such mail from many requests into
// shared jobs (decision 045). The request that wrote it (request id and W3C traceparent) is kept on the
// mail row, so the worker sends each one inside its own request's trace and its log lines can be found
// by that request id (decision 047). Nullable, with no default: nothing is rewritten.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail').addColumn('trace', 'jsonb').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail').dropColumn('trace').execute()
}
