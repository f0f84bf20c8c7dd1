// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against an untyped schema (Kysely<any>), by design.
import { type Kysely, sql } from 'kysely'

// A weekend (issue 32, decision 037).
// - Start and end times in 15-minute steps: open houses start at :30 too. The hourly labels SPEC §5
//   lists are among the new ones, spelled as before, so every stored open house stays valid.
// - Several open houses still to come on one property, one per property and date: the rule is the
//   database's own. The unique index below is the one the first open-house migration made; it is
//   stated again (if missing) because it is now the only thing that keeps a date from being booked
//   twice: the application no longer refuses a second upcoming open house, it inserts and lets this
//   index answer, in the one statement, so ten simultaneous saves of one date make one open house.
//   A canceled open house frees its date; a flexible date ('Pick Your Own', a null date) is no date
//   and may stand beside others until its host picks one, which the index then checks.

const FLEXI_TIME = 'Choose Your Own (Flexi Time)'
const HOURS = ['12', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']

function slots(minutes: readonly string[]) {
  return ['AM', 'PM'].flatMap((half) => HOURS.flatMap((h) => minutes.map((m) => `${h}:${m} ${half}`)))
}

/** `column in ('a', …)` — DDL takes no bind parameters, so the labels go in as literals. */
function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`
}

async function allowTimes(db: Kysely<any>, labels: readonly string[]) {
  for (const column of ['scheduled_start_time', 'scheduled_end_time']) {
    const name = `open_house_${column}_check`
    await sql`alter table open_house drop constraint if exists ${sql.raw(name)}`.execute(db)
    await sql`alter table open_house add constraint ${sql.raw(name)}
      check (${oneOf(column, [...labels, FLEXI_TIME])})`.execute(db)
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await allowTimes(db, slots(['00', '15', '30', '45']))
  await sql`create unique index if not exists open_house_re_property_id_scheduled_date_key
    on open_house (re_property_id, scheduled_date)
    where not open_house_canceled_flag and scheduled_date is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // Back to hourly slots: refused (the constraint fails) while an open house keeps a quarter-hour time.
  await allowTimes(db, slots(['00']))
}
