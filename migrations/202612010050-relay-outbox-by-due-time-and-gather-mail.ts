// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// The relay read open outbox rows in id order through outbox_open_idx and dropped those not due yet:
// every consented sign-in leaves a follow-up due in two days, so each pass read all of them (17 ms at
// 100,000) before finding nothing to do. Now (decision 045):
// - outbox_due_idx holds the rows never handed to BullMQ, by due time (run_at, or when written): a
//   pass reads only what is due, however many rows wait for later;
// - outbox_relayed_idx holds the rows handed over and not done yet, by when they were: a pass hands
//   again only those handed over long ago, without reading the ones in flight.
// mail.waiting_for 'job': a mail written without a send job of its own (the thank-you of a sign-in);
// the worker gathers such mail several to a job (mail/retries.ts), through mail_gathered_idx.
// A large deployment builds the three indexes CONCURRENTLY by hand before the release (IF NOT EXISTS
// then skips them here; docs/architecture.md, "Migrations: expand, then contract"). The widened check
// goes on NOT VALID: every row already passed the narrower one it replaces, so nothing is scanned.

const OPEN = sql`done_at is null and failed_at is null and parked_at is null`

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists outbox_due_idx on outbox ((coalesce(run_at, created_at)))
    where relayed_at is null and ${OPEN}`.execute(db)
  await sql`create index if not exists outbox_relayed_idx on outbox (relayed_at)
    where relayed_at is not null and ${OPEN}`.execute(db)
  await db.schema.dropIndex('outbox_open_idx').execute()

  await sql`alter table mail drop constraint mail_waiting_for_check`.execute(db)
  await sql`alter table mail add constraint mail_waiting_for_check
    check (waiting_for in ('server', 'schedule', 'job')) not valid`.execute(db)
  await sql`create index if not exists mail_gathered_idx on mail (id) where status = 'queued' and waiting_for = 'job'`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_gathered_idx').execute()
  // Mail still waiting to be gathered gets a job from the sweep as stranded mail; it is queued.
  await sql`update mail set waiting_for = null where waiting_for = 'job'`.execute(db)
  await sql`alter table mail drop constraint mail_waiting_for_check`.execute(db)
  await sql`alter table mail add constraint mail_waiting_for_check
    check (waiting_for in ('server', 'schedule'))`.execute(db)

  await sql`create index outbox_open_idx on outbox (id) where ${OPEN}`.execute(db)
  await db.schema.dropIndex('outbox_relayed_idx').execute()
  await db.schema.dropIndex('outbox_due_idx').execute()
}
