// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// Every API process keeps sessions and their agents for a few seconds (the session cache). Any change
// that could alter who may act for whom tells every process to forget what it keeps, at commit, by
// NOTIFY on `access_changed`: a session ended, recovered or shortened, an agent's row, a team or a
// membership. Sliding a session's expiry forward (hourly, as it is used) says nothing.

const everyStatement = 'for each statement'
const triggers = [
  ['session_ended', 'after delete on session', everyStatement],
  [
    'session_changed',
    'after update on session',
    `for each row when (old.recovery is distinct from new.recovery
       or old.user_id is distinct from new.user_id or new.expires_at < old.expires_at)`,
  ],
  ['re_agent_access_changed', 'after insert or update or delete on re_agent', everyStatement],
  ['re_team_access_changed', 'after insert or update or delete on re_team', everyStatement],
  ['re_team_member_access_changed', 'after insert or update or delete on re_team_member', everyStatement],
] as const

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function notify_access_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('access_changed', '');
      return null;
    end $$
  `.execute(db)
  for (const [name, when, level] of triggers) {
    await sql`
      create trigger ${sql.id(name)} ${sql.raw(when)} ${sql.raw(level)}
      execute function notify_access_changed()
    `.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, when] of triggers) {
    await sql`drop trigger ${sql.id(name)} on ${sql.raw(when.split(' on ')[1] ?? '')}`.execute(db)
  }
  await sql`drop function notify_access_changed()`.execute(db)
}
