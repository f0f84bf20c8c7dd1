// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import type { Kysely } from 'kysely'

// A visit whose welcome fails by itself (its data breaks a constraint, the mail cannot take a value) is
// set aside instead of failing its whole batch every pass (decision 053, amended 2026-11-26): its mark
// stays, with how many times it failed, when it may be tried again (null: now; 'infinity': left for an
// operator) and the last error. Columns without a volatile default: adding them rewrites nothing, and the
// sign-in's insert is unchanged.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('guest_welcome')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('retry_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('guest_welcome')
    .dropColumn('attempts')
    .dropColumn('retry_at')
    .dropColumn('last_error')
    .execute()
}
