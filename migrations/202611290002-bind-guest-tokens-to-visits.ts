// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// An email is not an identity (decision 029). A guest token was bound to a prospect and an open house,
// so anyone who typed a visitor's email at that open house got a token for the visitor's feedback. Now
// every guest sign-in is a visit of its own (an attendee row) and its token and feedback belong to that
// visit only. A sign-in's retry is known by its clientRequestId, which the visit keeps; an agent adding
// its prospect to an open house still adds it once.

export async function up(db: Kysely<any>): Promise<void> {
  // The visit keeps the sign-in's clientRequestId; the prospect's was its first visit's.
  await db.schema.alterTable('open_house_attendee').addColumn('client_request_id', 'uuid').execute()
  await sql`
    update open_house_attendee a set client_request_id = p.client_request_id
    from prospect p
    where p.client_request_id is not null
      and a.id = (select min(f.id) from open_house_attendee f
                  where f.prospect_id = p.id and f.guest_details is not null)`.execute(db)
  await db.schema
    .alterTable('open_house_attendee')
    .addUniqueConstraint('open_house_attendee_client_request_id_key', ['client_request_id'])
    .execute()

  // A guest may sign in at an open house more than once (each a visit); an agent's own add stays one.
  await db.schema
    .createIndex('open_house_attendee_prospect_open_house_idx')
    .on('open_house_attendee')
    .columns(['prospect_id', 'open_house_id'])
    .execute()
  await db.schema
    .alterTable('open_house_attendee')
    .dropConstraint('open_house_attendee_prospect_id_open_house_id_key')
    .execute()
  await db.schema
    .createIndex('open_house_attendee_added_by_agent_key')
    .on('open_house_attendee')
    .columns(['prospect_id', 'open_house_id'])
    .unique()
    .where(sql.ref('client_request_id'), 'is', null)
    .execute()

  // A guest token opens its own visit, nothing else.
  await db.schema
    .alterTable('guest_token')
    .addColumn('attendee_id', 'bigint', (col) => col.references('open_house_attendee.id').onDelete('cascade'))
    .execute()
  await sql`
    update guest_token t set attendee_id = a.id
    from open_house_attendee a
    where a.prospect_id = t.prospect_id and a.open_house_id = t.open_house_id`.execute(db)
  await sql`delete from guest_token where attendee_id is null`.execute(db)
  await db.schema
    .alterTable('guest_token')
    .alterColumn('attendee_id', (col) => col.setNotNull())
    .execute()
  await db.schema.createIndex('guest_token_attendee_idx').on('guest_token').column('attendee_id').execute()

  // One feedback per visit (it was one per prospect and open house).
  await db.schema
    .alterTable('open_house_feedback')
    .addColumn('attendee_id', 'bigint', (col) =>
      col.references('open_house_attendee.id').onDelete('set null'),
    )
    .execute()
  await sql`
    update open_house_feedback f set attendee_id = a.id
    from open_house_attendee a
    where a.prospect_id = f.prospect_id and a.open_house_id = f.open_house_id`.execute(db)
  await db.schema
    .alterTable('open_house_feedback')
    .dropConstraint('open_house_feedback_prospect_id_open_house_id_key')
    .execute()
  await db.schema
    .alterTable('open_house_feedback')
    .addUniqueConstraint('open_house_feedback_attendee_id_key', ['attendee_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  // Back to one visit per prospect and open house: later visits and their feedback and tokens go.
  await sql`
    delete from open_house_feedback f using open_house_feedback e
    where e.prospect_id = f.prospect_id and e.open_house_id = f.open_house_id and e.id < f.id`.execute(db)
  await db.schema
    .alterTable('open_house_feedback')
    .dropConstraint('open_house_feedback_attendee_id_key')
    .execute()
  await db.schema.alterTable('open_house_feedback').dropColumn('attendee_id').execute()
  await db.schema
    .alterTable('open_house_feedback')
    .addUniqueConstraint('open_house_feedback_prospect_id_open_house_id_key', [
      'prospect_id',
      'open_house_id',
    ])
    .execute()

  await db.schema.alterTable('guest_token').dropColumn('attendee_id').execute()

  await sql`
    delete from open_house_attendee a using open_house_attendee e
    where e.prospect_id = a.prospect_id and e.open_house_id = a.open_house_id and e.id < a.id`.execute(db)
  await db.schema.dropIndex('open_house_attendee_added_by_agent_key').execute()
  await db.schema.dropIndex('open_house_attendee_prospect_open_house_idx').execute()
  await db.schema
    .alterTable('open_house_attendee')
    .addUniqueConstraint('open_house_attendee_prospect_id_open_house_id_key', [
      'prospect_id',
      'open_house_id',
    ])
    .execute()
  await db.schema
    .alterTable('open_house_attendee')
    .dropConstraint('open_house_attendee_client_request_id_key')
    .execute()
  await db.schema.alterTable('open_house_attendee').dropColumn('client_request_id').execute()
}
