// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Properties and the agents' property inventory (SPEC §3 "Property", "Inventory item"; §4, §9).

const PROPERTY_TYPES = ['Apartment', 'Condo', 'Duplex', 'Other', 'Single Family Home', 'Townhouse']
const INVENTORY_PROPERTY_STATUSES = [
  'Property Created',
  'Active',
  'Active Under Contract',
  'Pending',
  'Sold/Closed',
  'Off Market',
  'Coming Soon',
  'Contingent',
  'Hold',
  'Withdraw',
]

/** `column in ('a', …)` — DDL takes no bind parameters, so the labels go in as literals. */
function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('re_property')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('property_address1', 'text', (col) => col.notNull())
    .addColumn('property_address2', 'text')
    .addColumn('property_city', 'text', (col) => col.notNull())
    .addColumn('property_state', 'text', (col) => col.notNull())
    .addColumn('property_zip_code', 'text', (col) => col.notNull())
    .addColumn('property_zip_plus4', 'text')
    .addColumn('property_county', 'text')
    .addColumn('property_country', 'text', (col) => col.notNull())
    .addColumn('property_latitude', 'double precision')
    .addColumn('property_longitude', 'double precision')
    .addColumn('property_type', 'text', (col) => col.notNull())
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('re_property_property_type_check', oneOf('property_type', PROPERTY_TYPES))
    .addCheckConstraint('re_property_property_latitude_check', sql`property_latitude between -90 and 90`)
    .addCheckConstraint('re_property_property_longitude_check', sql`property_longitude between -180 and 180`)
    .execute()

  await db.schema
    .createTable('re_inventory')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('owning_re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id'))
    .addColumn('re_property_id', 'bigint', (col) => col.notNull().references('re_property.id'))
    .addColumn('re_inventory_property_status', 'text', (col) => col.notNull().defaultTo('Property Created'))
    .addColumn('re_inventory_open_house_status', 'text')
    .addColumn('re_inventory_property_delete_flag', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      're_inventory_re_inventory_property_status_check',
      oneOf('re_inventory_property_status', INVENTORY_PROPERTY_STATUSES),
    )
    .execute()

  await db.schema
    .createIndex('re_inventory_owning_re_agent_id_idx')
    .on('re_inventory')
    .column('owning_re_agent_id')
    .execute()

  await db.schema
    .createIndex('re_inventory_re_property_id_idx')
    .on('re_inventory')
    .column('re_property_id')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('re_inventory').execute()
  await db.schema.dropTable('re_property').execute()
}
