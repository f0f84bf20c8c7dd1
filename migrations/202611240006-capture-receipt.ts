// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// How each guest was captured at the door (the kind of device, whether it waited offline first), and
// when the host was sent the capture receipt after the open house ended (once).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('open_house_attendee')
    .addColumn('capture_device', 'text', (col) =>
      col.check(sql`capture_device in ('phone', 'tablet', 'computer', 'kiosk')`),
    )
    .addColumn('captured_offline', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute()
  await db.schema.alterTable('open_house').addColumn('capture_receipt_sent_at', 'timestamptz').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('open_house').dropColumn('capture_receipt_sent_at').execute()
  await db.schema
    .alterTable('open_house_attendee')
    .dropColumn('capture_device')
    .dropColumn('captured_offline')
    .execute()
}
