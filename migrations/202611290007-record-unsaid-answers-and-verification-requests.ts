// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// "Are you working with a real estate agent?" has three answers: yes, no, and not said (decision 038).
// A guest who skipped it was stored as "No" (the column was NOT NULL DEFAULT false), so the dashboard,
// the filter, the hosting report and the CSV counted every silent guest among the "Leads Without
// Realtor". The column now holds true, false or null, and only false is "without a realtor".
//
// The rows stored before cannot all be told apart: a false is a "No" or a skip. One signal is kept: a
// sign-in records what the guest answered at that visit (open_house_attendee.guest_details, null when
// skipped), and a prospect made by a sign-in took its answer from that first visit, made in the same
// statement (same created_date). A prospect whose false came that way, from a first visit that
// recorded null, and that no agent edited since (its updated_date is still its created_date), was a
// skip: it becomes null. Every other false stays "No".
//
// The kept statistics (decision 014) count "without a realtor" as `not flag`; they now count
// `flag is false`, so a null neither counts nor moves a count. The functions that read the flag are
// taken as they stand and that one expression is changed (each change must be found, or the migration
// stops); the realtor-answer trigger is written out, as it now compares the old answer with the new.

// And the first agent of a firm, Pending with nobody in the firm to verify it, asks the operator from
// the app: re_agent.firm_verification_requested_at is when it last asked (once a day at most); the
// operator's page lists the pending agents who asked (decision 038).

const AGENT_KEY = '4611686018427387904' // as in 202611261300: an agent's advisory lock is this plus its id

/** The functions that read the flag, and what changes in each. */
const READERS: [string, string, string][] = [
  [
    'stats_open_house_changed()',
    'array_agg(not p.working_with_re_agent_flag)',
    'array_agg(p.working_with_re_agent_flag is false)',
  ],
  [
    'stats_attendee_changed()',
    'select not working_with_re_agent_flag into no_realtor',
    'select working_with_re_agent_flag is false into no_realtor',
  ],
  [
    'stats_rebuild()',
    'bool_and(not p.working_with_re_agent_flag)',
    'bool_and(p.working_with_re_agent_flag is false)',
  ],
]

async function rewrite(db: Kysely<any>, fn: string, from: string, to: string): Promise<void> {
  const { rows } = await sql<{ def: string }>`
    select pg_get_functiondef(${fn}::regprocedure) as def`.execute(db)
  const def = rows[0]?.def ?? ''
  if (!def.includes(from)) throw new Error(`${fn} does not read the realtor answer as expected`)
  await sql.raw(def.replace(from, to)).execute(db)
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const [fn, from, to] of READERS) await rewrite(db, fn, from, to)
  await sql`
    create or replace function stats_prospect_realtor_changed() returns trigger
    language plpgsql as $$
    declare
      who bigint;
      was_without boolean := old.working_with_re_agent_flag is false;
      now_without boolean := new.working_with_re_agent_flag is false;
      d bigint := now_without::int - was_without::int;
    begin
      if d = 0 then return null; end if; -- yes to not said and back: neither is "without a realtor"
      perform pg_advisory_xact_lock_shared(${sql.raw(AGENT_KEY)}::bigint + a)
      from (select re_agent_id as a from agent_visitor where prospect_id = new.id order by 1) agents;
      for who in select re_agent_id from agent_visitor where prospect_id = new.id order by 1 loop
        perform stats_bump(who, 0, 0, 0, 0, d);
        update agent_visitor set without_realtor = now_without
        where re_agent_id = who and prospect_id = new.id;
      end loop;
      for who in select re_team_id from team_visitor where prospect_id = new.id order by 1 loop
        perform stats_team_bump(who, 0, d);
        update team_visitor set without_realtor = now_without
        where re_team_id = who and prospect_id = new.id;
      end loop;
      return null;
    end $$`.execute(db)

  await sql`alter table re_agent add column firm_verification_requested_at timestamptz`.execute(db)
  await sql`
    create index re_agent_firm_verification_requested_idx on re_agent (firm_verification_requested_at)
    where firm_verification_requested_at is not null`.execute(db)

  await sql`alter table prospect alter column working_with_re_agent_flag drop not null`.execute(db)
  await sql`alter table prospect alter column working_with_re_agent_flag drop default`.execute(db)
  // The skips stored as "No" that can be told (see above); the trigger takes them out of the counts.
  await sql`
    update prospect p set working_with_re_agent_flag = null
    from (
      select distinct on (a.prospect_id) a.prospect_id, a.guest_details, a.created_date
      from open_house_attendee a
      order by a.prospect_id, a.id
    ) first_visit
    where first_visit.prospect_id = p.id
      and p.working_with_re_agent_flag = false
      and p.updated_date = p.created_date
      and first_visit.created_date = p.created_date
      and first_visit.guest_details -> 'workingWithREAgentFlag' = 'null'::jsonb`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table re_agent drop column firm_verification_requested_at`.execute(db)
  // Not said goes back to "No", as it was stored before.
  await sql`update prospect set working_with_re_agent_flag = false where working_with_re_agent_flag is null`.execute(
    db,
  )
  await sql`alter table prospect alter column working_with_re_agent_flag set default false`.execute(db)
  await sql`alter table prospect alter column working_with_re_agent_flag set not null`.execute(db)
  for (const [fn, to, from] of READERS) await rewrite(db, fn, from, to)
  await sql`
    create or replace function stats_prospect_realtor_changed() returns trigger
    language plpgsql as $$
    declare
      who bigint;
      d bigint := case when new.working_with_re_agent_flag then -1 else 1 end;
    begin
      perform pg_advisory_xact_lock_shared(${sql.raw(AGENT_KEY)}::bigint + a)
      from (select re_agent_id as a from agent_visitor where prospect_id = new.id order by 1) agents;
      for who in select re_agent_id from agent_visitor where prospect_id = new.id order by 1 loop
        perform stats_bump(who, 0, 0, 0, 0, d);
        update agent_visitor set without_realtor = not new.working_with_re_agent_flag
        where re_agent_id = who and prospect_id = new.id;
      end loop;
      for who in select re_team_id from team_visitor where prospect_id = new.id order by 1 loop
        perform stats_team_bump(who, 0, d);
        update team_visitor set without_realtor = not new.working_with_re_agent_flag
        where re_team_id = who and prospect_id = new.id;
      end loop;
      return null;
    end $$`.execute(db)
}
