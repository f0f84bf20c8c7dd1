// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Who may act for whom (docs/policy.md): verified firm membership, accepted team membership, the agent
// who scheduled an open house, who created a property, and the guest's capability to give feedback.
//
// Existing data, decided as a compliance officer would: nothing self-declared is trusted.
// - Every existing firm membership starts 'pending'; an operator verifies each firm's first member
//   (`pnpm firm:verify`), who then approves the others in the app.
// - Existing team memberships were made without the member's consent: they become 'invited' and count
//   once the member accepts.
// - Existing open houses record their listing agent as their scheduler, so nobody acts for another on an
//   open house made before this change.

const FIRM_STATUSES = ['pending', 'verified', 'declined']
const INVITATION_STATUSES = ['invited', 'accepted', 'declined']

function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('re_agent')
    .addColumn('firm_membership_status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('firm_membership_decided_by_re_agent_id', 'bigint', (col) =>
      col.references('re_agent.id').onDelete('set null'),
    )
    .addColumn('firm_membership_decided_at', 'timestamptz')
    .execute()
  await db.schema
    .alterTable('re_agent')
    .addCheckConstraint(
      're_agent_firm_membership_status_check',
      oneOf('firm_membership_status', FIRM_STATUSES),
    )
    .execute()
  await db.schema
    .createIndex('re_agent_firm_license_status_idx')
    .on('re_agent')
    .columns(['re_agent_broker_firm_license', 'firm_membership_status'])
    .execute()
  // A new firm license is a new claim: whatever path changes it, the membership is pending again.
  await sql`
    create function re_agent_firm_license_changed() returns trigger language plpgsql as $$
    begin
      if new.re_agent_broker_firm_license is distinct from old.re_agent_broker_firm_license then
        new.firm_membership_status := 'pending';
        new.firm_membership_decided_by_re_agent_id := null;
        new.firm_membership_decided_at := null;
      end if;
      return new;
    end $$`.execute(db)
  await sql`
    create trigger re_agent_firm_license_changed before update of re_agent_broker_firm_license on re_agent
    for each row execute function re_agent_firm_license_changed()`.execute(db)

  await db.schema
    .alterTable('re_team_member')
    .addColumn('invitation_status', 'text', (col) => col.notNull().defaultTo('invited'))
    .addColumn('responded_at', 'timestamptz')
    .execute()
  await db.schema
    .alterTable('re_team_member')
    .addCheckConstraint(
      're_team_member_invitation_status_check',
      oneOf('invitation_status', INVITATION_STATUSES),
    )
    .execute()

  await db.schema
    .alterTable('open_house')
    .addColumn('scheduled_by_re_agent_id', 'bigint', (col) => col.references('re_agent.id'))
    .execute()
  await sql`update open_house set scheduled_by_re_agent_id = listing_re_agent_id`.execute(db)
  await db.schema
    .alterTable('open_house')
    .alterColumn('scheduled_by_re_agent_id', (col) => col.setNotNull())
    .execute()
  await db.schema
    .createIndex('open_house_scheduled_by_re_agent_id_idx')
    .on('open_house')
    .column('scheduled_by_re_agent_id')
    .execute()

  // Who typed the address in; null for properties made before this change.
  await db.schema
    .alterTable('re_property')
    .addColumn('created_by_re_agent_id', 'bigint', (col) =>
      col.references('re_agent.id').onDelete('set null'),
    )
    .execute()

  // A visit keeps what the guest typed (a returning visitor never overwrites the agent's prospect) and
  // whether the guest agreed to share its contact details with the listing agent too.
  await db.schema
    .alterTable('open_house_attendee')
    .addColumn('guest_details', 'jsonb')
    .addColumn('listing_agent_consent', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute()

  // The guest's capability: only the SHA-256 of a 256-bit random token, bound to one prospect and visit.
  await db.schema
    .createTable('guest_token')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('prospect_id', 'bigint', (col) => col.notNull().references('prospect.id').onDelete('cascade'))
    .addColumn('open_house_id', 'bigint', (col) =>
      col.notNull().references('open_house.id').onDelete('cascade'),
    )
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('guest_token_prospect_open_house_idx')
    .on('guest_token')
    .columns(['prospect_id', 'open_house_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('guest_token').execute()
  await db.schema
    .alterTable('open_house_attendee')
    .dropColumn('guest_details')
    .dropColumn('listing_agent_consent')
    .execute()
  await db.schema.alterTable('re_property').dropColumn('created_by_re_agent_id').execute()
  await db.schema.alterTable('open_house').dropColumn('scheduled_by_re_agent_id').execute()
  await db.schema
    .alterTable('re_team_member')
    .dropColumn('invitation_status')
    .dropColumn('responded_at')
    .execute()
  await sql`drop trigger re_agent_firm_license_changed on re_agent`.execute(db)
  await sql`drop function re_agent_firm_license_changed()`.execute(db)
  await db.schema.dropIndex('re_agent_firm_license_status_idx').execute()
  await db.schema
    .alterTable('re_agent')
    .dropColumn('firm_membership_status')
    .dropColumn('firm_membership_decided_by_re_agent_id')
    .dropColumn('firm_membership_decided_at')
    .execute()
}
