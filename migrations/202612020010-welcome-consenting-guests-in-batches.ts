// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import type { Kysely } from 'kysely'

// A consenting guest's welcome, done by the worker (issue 38, decision 053): the sign-in statement marks
// its visit as owed a welcome with one narrow row here, and the worker, in batches, takes the rows
// (`for update skip locked`) and, in the same transaction, writes the consent ledger's opt-in, the
// unsubscribe token, the thank-you and the follow-up, deleting the rows it took. No foreign key: a row
// whose visit is gone is taken and welcomes nobody, and the sign-in pays no key check. `trace` is the
// request's trace (decision 047), which the rows the worker writes for the visit carry on.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('guest_welcome')
    .addColumn('attendee_id', 'bigint', (col) => col.primaryKey())
    .addColumn('trace', 'jsonb')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('guest_welcome').execute()
}
