// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// The prospect list's sorts by name and by next follow-up (issue 13), each read in order from an index
// instead of sorting every prospect of the agent (newest first has prospect_agent_newest_idx), and the
// filters' columns beside the agent, so counting a filtered list reads the index alone.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('prospect_agent_name_idx')
    .on('prospect')
    .expression(sql`created_by_re_agent_id, lower(prospect_last_name), lower(prospect_first_name), id`)
    .execute()
  await db.schema
    .createIndex('prospect_agent_follow_up_order_idx')
    .on('prospect')
    .expression(sql`created_by_re_agent_id, next_follow_up_date, id`)
    .execute()
  await db.schema
    .createIndex('prospect_agent_filters_idx')
    .on('prospect')
    .columns([
      'created_by_re_agent_id',
      'working_with_re_agent_flag',
      'prospect_stage',
      'home_buying_timelines',
    ])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('prospect_agent_filters_idx').execute()
  await db.schema.dropIndex('prospect_agent_follow_up_order_idx').execute()
  await db.schema.dropIndex('prospect_agent_name_idx').execute()
}
