// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Open houses (SPEC §3 "Open house", §4, §5, §9; DESIGN "Data").

const OPEN_HOUSE_FOR = ['Sale', 'Rent']
const FLEXI_TIME = 'Choose Your Own (Flexi Time)'
const HOURS = ['12', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']
const TIME_SLOTS = [...HOURS.map((h) => `${h}:00 AM`), ...HOURS.map((h) => `${h}:00 PM`)]
const PUBLISH_LEVELS = [
  'Hosting Myself',
  'Market Center',
  'Open To All',
  'Real Estate Team',
  'Real Estate Group',
  'Partnered Team',
]
const CANCEL_REASONS = [
  'Seller Not Available',
  'Property Under Contract',
  'Agent Unavailability',
  'Not Right Day/Time',
  'Other',
]

/** `column in ('a', …)` — DDL takes no bind parameters, so the labels go in as literals. */
function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('open_house')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('re_property_id', 'bigint', (col) => col.notNull().references('re_property.id'))
    .addColumn('listing_re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id'))
    // null while the opportunity is open; the claim sets it in one conditional update
    .addColumn('hosting_re_agent_id', 'bigint', (col) => col.references('re_agent.id').onDelete('set null'))
    .addColumn('open_house_for', 'text', (col) => col.notNull())
    .addColumn('mls_id', 'text')
    .addColumn('listing_url', 'text')
    // null = 'Pick Your Own (Flexi Date)'
    .addColumn('scheduled_date', 'date')
    .addColumn('scheduled_start_time', 'text', (col) => col.notNull())
    .addColumn('scheduled_end_time', 'text', (col) => col.notNull())
    .addColumn('open_house_timezone', 'text', (col) => col.notNull().defaultTo('UTC'))
    .addColumn('open_house_preparation_date', 'date')
    .addColumn('balloons_put_out_flag', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('snack_served_flag', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('meal_served_flag', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('drink_served_flag', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('open_house_instructions', 'varchar(200)')
    .addColumn('publish_level', 'text', (col) => col.notNull())
    // '0' Hosting Myself, '-1' Open To All, the broker firm license for Market Center, else a team id
    .addColumn('publish_level_id', 'text', (col) => col.notNull())
    // set when the opportunity is offered (publishOpenHouseOpportunity); null = saved but not on offer
    .addColumn('published_at', 'timestamptz')
    .addColumn('auto_clone_open_house_flag', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('email_id_for_sharing_oh_feedback', 'text')
    .addColumn('open_house_canceled_flag', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('open_house_cancel_reason', 'text')
    .addColumn('re_inventory_id', 'bigint', (col) => col.references('re_inventory.id').onDelete('set null'))
    // derived by the server from date, slot labels and timezone; null while date or time is flexible
    .addColumn('starts_at', 'timestamptz')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('cloned_from_open_house_id', 'bigint', (col) =>
      col.references('open_house.id').onDelete('set null'),
    )
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('open_house_open_house_for_check', oneOf('open_house_for', OPEN_HOUSE_FOR))
    .addCheckConstraint(
      'open_house_scheduled_start_time_check',
      oneOf('scheduled_start_time', [...TIME_SLOTS, FLEXI_TIME]),
    )
    .addCheckConstraint(
      'open_house_scheduled_end_time_check',
      oneOf('scheduled_end_time', [...TIME_SLOTS, FLEXI_TIME]),
    )
    .addCheckConstraint('open_house_publish_level_check', oneOf('publish_level', PUBLISH_LEVELS))
    // SPEC §9: the fixed publish level ids
    .addCheckConstraint(
      'open_house_publish_level_id_check',
      sql`(publish_level <> 'Hosting Myself' or publish_level_id = '0')
        and (publish_level <> 'Open To All' or publish_level_id = '-1')`,
    )
    .addCheckConstraint(
      'open_house_open_house_cancel_reason_check',
      oneOf('open_house_cancel_reason', CANCEL_REASONS),
    )
    // SPEC §5: a cancellation always carries its reason
    .addCheckConstraint(
      'open_house_canceled_reason_check',
      sql`not open_house_canceled_flag or open_house_cancel_reason is not null`,
    )
    .execute()

  // SPEC §8 'Open House is already scheduled for this property and date!'
  await db.schema
    .createIndex('open_house_re_property_id_scheduled_date_key')
    .on('open_house')
    .unique()
    .columns(['re_property_id', 'scheduled_date'])
    .where(sql<boolean>`not open_house_canceled_flag and scheduled_date is not null`)
    .execute()

  await db.schema
    .createIndex('open_house_listing_re_agent_id_idx')
    .on('open_house')
    .column('listing_re_agent_id')
    .execute()

  await db.schema
    .createIndex('open_house_hosting_re_agent_id_idx')
    .on('open_house')
    .column('hosting_re_agent_id')
    .execute()

  // the open opportunities an agent may claim (getAvailableToHostOH)
  await db.schema
    .createIndex('open_house_publish_level_publish_level_id_idx')
    .on('open_house')
    .columns(['publish_level', 'publish_level_id'])
    .where(sql<boolean>`hosting_re_agent_id is null`)
    .execute()

  await db.schema
    .createIndex('open_house_re_inventory_id_idx')
    .on('open_house')
    .column('re_inventory_id')
    .execute()

  await db.schema
    .createIndex('open_house_cloned_from_open_house_id_idx')
    .on('open_house')
    .column('cloned_from_open_house_id')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('open_house').execute()
}
