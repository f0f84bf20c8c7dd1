import { sql } from 'kysely'
import type { SecretBox } from '../secrets.ts'
import type { Db } from './database.ts'

/** Every column that holds a sealed secret, with the column that names its row. */
export const SEALED_COLUMNS = [
  { table: 'webhook_endpoint', column: 'secret', key: 'id' },
  { table: 'fub_connector', column: 'api_key', key: 're_agent_id' },
  { table: 'calendar_feed', column: 'token', key: 're_agent_id' },
  { table: 'mail', column: 'unsubscribe_url', key: 'id' },
  { table: 'mail', column: 'private_link', key: 'id' },
  { table: 'seller_report_link', column: 'token', key: 'id' },
  // A push (its claim capability) is opened once, when it is sent: only the ones still to send matter.
  { table: 'push_message', column: 'payload', key: 'id', waiting: sql`status in ('pending', 'sending')` },
] as const satisfies ReadonlyArray<{ table: string; column: string; key: string; waiting?: unknown }>

/**
 * Mails outlive an old key only briefly: a mail's link is opened once, when it goes out. Their values
 * are sealed when plain (migration 202611290005 left them so), not sealed again after a rotation.
 */
const PLAIN_ONLY = new Set(['mail'])

const BATCH = 500

/**
 * Seals what is still plain (stored before sealing existed) and seals again with the current key what
 * an older key of SECRETS_KEY sealed, a batch at a time. Each write is conditional on the value read, so
 * processes doing this at once (several workers starting) change each value once. Answers how many
 * values it sealed. A value that no listed key opens is left as it is, and counted in `unreadable`.
 */
export async function resealSecrets(db: Db, box: SecretBox): Promise<{ sealed: number; unreadable: number }> {
  let sealed = 0
  let unreadable = 0
  for (const place of SEALED_COLUMNS) {
    const { table, column, key } = place
    const waiting = 'waiting' in place ? sql`and ${place.waiting}` : sql``
    // A literal, so the partial index of plain values (migration 202611290005) serves the plain pass.
    const pattern = PLAIN_ONLY.has(table) ? 'sk1.%' : box.currentPattern
    let after: string | number = -1
    for (;;) {
      const { rows } = await sql<{ k: string | number; v: string }>`
        select ${sql.ref(key)} as k, ${sql.ref(column)} as v from ${sql.table(table)}
        where ${sql.ref(column)} not like ${sql.lit(pattern)} and ${sql.ref(key)} > ${after} ${waiting}
        order by ${sql.ref(key)} limit ${BATCH}`.execute(db)
      for (const row of rows) {
        let plain: string
        try {
          plain = box.open(row.v, `${table}.${column}`)
        } catch {
          unreadable++
          continue
        }
        const done = await sql`
          update ${sql.table(table)} set ${sql.ref(column)} = ${box.seal(plain, `${table}.${column}`)}
          where ${sql.ref(key)} = ${row.k} and ${sql.ref(column)} = ${row.v}`.execute(db)
        sealed += Number(done.numAffectedRows ?? 0)
      }
      const last = rows.at(-1)
      if (!last || rows.length < BATCH) break
      after = last.k
    }
  }
  return { sealed, unreadable }
}
