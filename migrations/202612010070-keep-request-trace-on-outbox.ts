// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import type { Kysely } from 'kysely'

// The request that wrote an outbox row (its request id and W3C traceparent) travels with the job, so
// the worker's log lines of that job can be found by the request id (decision 047). Nullable, with no
// default: adding it rewrites nothing and locks the table only for the catalog change; rows written
// before, and rows written outside a request, have none.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('trace', 'jsonb').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('trace').execute()
}
