// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import type { Kysely } from 'kysely'

// The dashboard overview reads an agent's open houses of a few weeks around today (the coming week, the
// last week's guests, six weeks of feedback), as listing agent or as host. With an index on the agent
// alone each read walked every open house the agent ever had; with the date beside it, only the window.

const INDEXES = [
  ['open_house_listing_agent_date_idx', 'listing_re_agent_id'],
  ['open_house_hosting_agent_date_idx', 'hosting_re_agent_id'],
] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, agentColumn] of INDEXES) {
    await db.schema
      .createIndex(name)
      .on('open_house')
      .columns([agentColumn, 'scheduled_date'])
      .where('scheduled_date', 'is not', null)
      .execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute()
}
