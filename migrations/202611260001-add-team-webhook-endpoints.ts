// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// A Team Lead's (or co-lead's) endpoint for its whole team: it hears the events of everyone in the team.
// Removing the team removes its endpoints and their logs.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoint')
    .addColumn('team_id', 'bigint', (col) => col.references('re_team.id').onDelete('cascade'))
    .execute()
  // A sign-in asks: which enabled team endpoints do the teams of these agents have?
  await db.schema
    .createIndex('webhook_endpoint_team_idx')
    .on('webhook_endpoint')
    .column('team_id')
    .where(sql.ref('disabled_at'), 'is', null)
    .where(sql.ref('team_id'), 'is not', null)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_endpoint_team_idx').execute()
  await db.schema.alterTable('webhook_endpoint').dropColumn('team_id').execute()
}
