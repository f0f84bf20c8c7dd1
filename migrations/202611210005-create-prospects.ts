// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Prospects (leads), who attended which open house, and their feedback
// (SPEC §3 "Prospect", "Attendee record", "Feedback").

const CURRENT_HOUSE_STATUSES = ['Rent', 'Own', 'Other']
const HOME_BUYING_TIMELINES = ['Now', '1-3 Months', '3-6 Months', '6-9 Months', 'Just Exploring', 'Other']
// 'Afteroon' is spelt so in the SPEC and travels as that label
const BEST_TIMES_TO_CONTACT = ['Morning', 'Afteroon', 'Evening', 'Weekends', 'No Preference']
const HEARD_ABOUT_THIS_OPEN_HOUSE = [
  'Friend',
  'Driving By',
  'Signs',
  'Online Website',
  'Realtor Communication',
  'Other',
]
const PROSPECT_NOTIFICATIONS = ['Email', 'SMS', 'Both']

const RATING_COLUMNS = [
  // exterior
  'home_lot',
  'curb_appeal',
  'front_yard',
  'back_yard',
  // interior
  'kitchen',
  'family_room',
  'living_room',
  'dining_room',
  'master_bedroom',
  'master_bathroom',
  'other_bedrooms',
  'other_bathrooms',
  'laundry_room',
  'closets_storage',
  'hallways',
  'garage',
  'basement',
  'home_layout',
  'home_features',
  // other
  'home_location',
  'home_condition',
  'home_price',
  'home_neighborhood',
  'overall_experience',
  'meets_my_criteria',
  // hosting agent
  'agent_knowledge',
  'agent_professionalism',
  'agent_communication',
  'agent_responsiveness',
  'agent_overall_experience',
  'agent_recommendation',
]

/** `column in ('a', …)` — DDL takes no bind parameters, so the labels go in as literals. */
function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('prospect')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('prospect_first_name', 'text', (col) => col.notNull())
    .addColumn('prospect_middle_name', 'text')
    .addColumn('prospect_last_name', 'text', (col) => col.notNull())
    .addColumn('prospect_email_id', 'text', (col) => col.notNull())
    .addColumn('prospect_phone_number', 'text', (col) => col.notNull())
    .addColumn('prospect_address1', 'text')
    .addColumn('prospect_address2', 'text')
    .addColumn('prospect_city', 'text')
    .addColumn('prospect_state', 'text')
    .addColumn('prospect_zip_code', 'text')
    .addColumn('prospect_zip_plus4', 'text')
    .addColumn('prospect_county', 'text')
    .addColumn('prospect_country', 'text')
    .addColumn('current_house_status', 'text')
    .addColumn('home_buying_timelines', 'text')
    // false counts the prospect among the "Leads Without Realtor"
    .addColumn('working_with_re_agent_flag', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('best_time_to_contact', 'text')
    .addColumn('heard_about_this_open_house', 'text')
    .addColumn('prospect_notification', 'text')
    // the agent whose lead this is (in the guest QR flow: the agent from the QR code)
    .addColumn('created_by_re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id'))
    // sent by the guest page so that a retried sign-in on a weak signal creates one prospect
    .addColumn('client_request_id', 'uuid', (col) => col.unique())
    .addColumn('email_consent', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('sms_consent', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('consent_text', 'text')
    .addColumn('consent_at', 'timestamptz')
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'prospect_current_house_status_check',
      oneOf('current_house_status', CURRENT_HOUSE_STATUSES),
    )
    .addCheckConstraint(
      'prospect_home_buying_timelines_check',
      oneOf('home_buying_timelines', HOME_BUYING_TIMELINES),
    )
    .addCheckConstraint(
      'prospect_best_time_to_contact_check',
      oneOf('best_time_to_contact', BEST_TIMES_TO_CONTACT),
    )
    .addCheckConstraint(
      'prospect_heard_about_this_open_house_check',
      oneOf('heard_about_this_open_house', HEARD_ABOUT_THIS_OPEN_HOUSE),
    )
    .addCheckConstraint(
      'prospect_prospect_notification_check',
      oneOf('prospect_notification', PROSPECT_NOTIFICATIONS),
    )
    .execute()

  // one prospect per agent and email address, whatever its case
  await db.schema
    .createIndex('prospect_created_by_re_agent_id_email_key')
    .on('prospect')
    .unique()
    .expression(sql`created_by_re_agent_id, lower(prospect_email_id)`)
    .execute()

  await db.schema
    .createTable('open_house_attendee')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('open_house_id', 'bigint', (col) =>
      col.notNull().references('open_house.id').onDelete('cascade'),
    )
    .addColumn('prospect_id', 'bigint', (col) => col.notNull().references('prospect.id').onDelete('cascade'))
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('open_house_attendee_prospect_id_open_house_id_key', [
      'prospect_id',
      'open_house_id',
    ])
    .execute()

  await db.schema
    .createIndex('open_house_attendee_open_house_id_idx')
    .on('open_house_attendee')
    .column('open_house_id')
    .execute()

  let feedback = db.schema
    .createTable('open_house_feedback')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('open_house_id', 'bigint', (col) =>
      col.notNull().references('open_house.id').onDelete('cascade'),
    )
    .addColumn('prospect_id', 'bigint', (col) => col.notNull().references('prospect.id').onDelete('cascade'))
    .addColumn('hosting_re_agent_id', 'bigint', (col) => col.references('re_agent.id').onDelete('set null'))
    .addColumn('feedback_text', 'text')
  // ratings 1 (poor) to 5 (excellent); null is the form's 'N/A'
  for (const column of RATING_COLUMNS) {
    feedback = feedback
      .addColumn(column, 'smallint')
      .addCheckConstraint(`open_house_feedback_${column}_check`, sql`${sql.ref(column)} between 1 and 5`)
  }
  await feedback
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('open_house_feedback_prospect_id_open_house_id_key', [
      'prospect_id',
      'open_house_id',
    ])
    .execute()

  await db.schema
    .createIndex('open_house_feedback_open_house_id_idx')
    .on('open_house_feedback')
    .column('open_house_id')
    .execute()

  await db.schema
    .createIndex('open_house_feedback_hosting_re_agent_id_idx')
    .on('open_house_feedback')
    .column('hosting_re_agent_id')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('open_house_feedback').execute()
  await db.schema.dropTable('open_house_attendee').execute()
  await db.schema.dropTable('prospect').execute()
}
