// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// A guest token belongs to one visit (attendee_id, decision 029), and its prospect_id and open_house_id
// are that visit's, written from the visit's own row by both writers (the sign-in's statement and a
// retry's token). Their foreign keys checked again what the visit's key already holds: a deleted
// prospect or open house takes its visits with it, and a visit its tokens (guest_token_attendee_id_fkey,
// on delete cascade). Each sign-in paid two more key checks for them, one a share lock on the open house
// every guest at the door takes (decision 058). The index on (prospect_id, open_house_id) served only
// the prospect's cascade: nothing reads tokens but by their hash.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table guest_token drop constraint guest_token_prospect_id_fkey`.execute(db)
  await sql`alter table guest_token drop constraint guest_token_open_house_id_fkey`.execute(db)
  await sql`drop index guest_token_prospect_open_house_idx`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index guest_token_prospect_open_house_idx on guest_token (prospect_id, open_house_id)`.execute(
    db,
  )
  await sql`alter table guest_token add constraint guest_token_open_house_id_fkey
    foreign key (open_house_id) references open_house (id) on delete cascade`.execute(db)
  await sql`alter table guest_token add constraint guest_token_prospect_id_fkey
    foreign key (prospect_id) references prospect (id) on delete cascade`.execute(db)
}
