// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Roles are granted, never typed (decision 028). `re_agent.re_agent_role` is the role held; what an agent
// asked for at sign-up is kept as `requested_role`. Every change of a held role is a row of
// `re_agent_role_grant`: who (a lead's agent id, or the operator), when, from what to what, and why.
//
// Existing roles, decided as a compliance officer would: a Team Lead or Admin Team Member role is kept
// only where someone with authority stood behind the member, that is a verified member whose firm
// verification was recorded as the operator's (decided, by nobody) or as a kept Team Lead's, followed
// from the operator down. Everyone else holds Real Estate Agent from now on, with the role it had typed
// kept as its request, until a verified Team Lead of its firm or the operator grants it.

const SCHEDULER_ROLES = sql`('Team Lead', 'Admin Team Member')`
const ROLES = sql`('Real Estate Agent', 'Team Lead', 'Admin Team Member')`
const REASONS = sql`('granted', 'declined', 'firm-changed', 'migrated')`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('re_agent').addColumn('requested_role', 'text').execute()
  // A new agent holds Real Estate Agent whatever it asks for.
  await sql`alter table re_agent alter column re_agent_role set default 'Real Estate Agent'`.execute(db)
  await sql`alter table re_agent add constraint re_agent_requested_role_check
    check (requested_role is null or requested_role in ${ROLES})`.execute(db)

  await db.schema
    .createTable('re_agent_role_grant')
    .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('re_agent_id', 'bigint', (col) => col.notNull().references('re_agent.id').onDelete('cascade'))
    .addColumn('re_agent_role', 'text', (col) => col.notNull())
    .addColumn('previous_role', 'text', (col) => col.notNull())
    // Null with by_operator: the operator (ADMIN_TOKEN, `pnpm firm:verify`); null without: the agent
    // who decided was deleted since, or the database changed it (a new firm license).
    .addColumn('granted_by_re_agent_id', 'bigint', (col) =>
      col.references('re_agent.id').onDelete('set null'),
    )
    .addColumn('by_operator', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('created_date', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('re_agent_role_grant_role_check', sql`re_agent_role in ${ROLES}`)
    .addCheckConstraint('re_agent_role_grant_reason_check', sql`reason in ${REASONS}`)
    .execute()
  await db.schema
    .createIndex('re_agent_role_grant_agent_idx')
    .on('re_agent_role_grant')
    .columns(['re_agent_id', 'id'])
    .execute()

  // Existing data. Everyone's role so far was typed: it is what it asked for.
  await sql`update re_agent set requested_role = re_agent_role`.execute(db)
  await sql`
    with recursive kept(id) as (
      select a.id from re_agent a
      where a.firm_membership_status = 'verified' and a.re_agent_role in ${SCHEDULER_ROLES}
        and a.firm_membership_decided_at is not null and a.firm_membership_decided_by_re_agent_id is null
      union
      select a.id from re_agent a
      join kept k on k.id = a.firm_membership_decided_by_re_agent_id
      join re_agent d on d.id = k.id and d.re_agent_role = 'Team Lead'
        and d.re_agent_broker_firm_license = a.re_agent_broker_firm_license
      where a.firm_membership_status = 'verified' and a.re_agent_role in ${SCHEDULER_ROLES}
    ), granted as (
      insert into re_agent_role_grant
        (re_agent_id, re_agent_role, previous_role, granted_by_re_agent_id, by_operator, reason, created_date)
      select a.id, a.re_agent_role, a.re_agent_role, a.firm_membership_decided_by_re_agent_id,
        a.firm_membership_decided_by_re_agent_id is null, 'migrated', a.firm_membership_decided_at
      from re_agent a where a.id in (select id from kept)
      returning re_agent_id
    ), revoked as (
      insert into re_agent_role_grant (re_agent_id, re_agent_role, previous_role, reason)
      select a.id, 'Real Estate Agent', a.re_agent_role, 'migrated'
      from re_agent a where a.re_agent_role <> 'Real Estate Agent' and a.id not in (select id from kept)
      returning re_agent_id
    )
    update re_agent set re_agent_role = 'Real Estate Agent', updated_date = now()
    where id in (select re_agent_id from revoked)`.execute(db)

  // A new firm license is a new claim: the membership is pending again (202611230001) and a role granted
  // in the old firm is no longer held.
  await sql`
    create or replace function re_agent_firm_license_changed() returns trigger language plpgsql as $$
    begin
      if new.re_agent_broker_firm_license is distinct from old.re_agent_broker_firm_license then
        new.firm_membership_status := 'pending';
        new.firm_membership_decided_by_re_agent_id := null;
        new.firm_membership_decided_at := null;
        if new.re_agent_role <> 'Real Estate Agent' then
          insert into re_agent_role_grant (re_agent_id, re_agent_role, previous_role, reason)
          values (new.id, 'Real Estate Agent', new.re_agent_role, 'firm-changed');
          new.re_agent_role := 'Real Estate Agent';
        end if;
      end if;
      return new;
    end $$`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function re_agent_firm_license_changed() returns trigger language plpgsql as $$
    begin
      if new.re_agent_broker_firm_license is distinct from old.re_agent_broker_firm_license then
        new.firm_membership_status := 'pending';
        new.firm_membership_decided_by_re_agent_id := null;
        new.firm_membership_decided_at := null;
      end if;
      return new;
    end $$`.execute(db)
  // Back to typed roles: what each agent asked for.
  await sql`update re_agent set re_agent_role = coalesce(requested_role, re_agent_role)`.execute(db)
  await db.schema.dropTable('re_agent_role_grant').execute()
  await sql`alter table re_agent alter column re_agent_role drop default`.execute(db)
  await db.schema.alterTable('re_agent').dropColumn('requested_role').execute()
}
