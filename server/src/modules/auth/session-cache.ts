import type { DbHandle } from '../../db/database.ts'
import { type TableWrite, tableKey, WATCHED } from '../../db/write-watch.ts'
import { setNewest } from '../../lib/newest.ts'

/** The tables whose change can alter who a session is and what its agent may do (loadActor's facts). */
const ACCESS_TABLES = WATCHED
/**
 * A new session changes nothing kept, nor does an expiry set beyond the time anything is kept (the
 * hourly slide forward): a session valid then is valid while kept. Anything else about sessions does.
 */
function changesAccess(write: TableWrite, ttlMs: number): boolean {
  if (write.table !== 'session' || write.kind === 'delete') return true
  if (write.kind === 'insert') return false
  return write.columns.some((column, i) => {
    const value = write.values[i]
    return !(
      tableKey(column) === 'expiresat' &&
      value instanceof Date &&
      value.getTime() > Date.now() + ttlMs
    )
  })
}

/**
 * Sessions and their agents as last read, for a few seconds (SESSION_CACHE_MS): an agent's screen asks
 * several things at once, and a claim race is hundreds of requests in a second, each of which would
 * read its session and agent (and the agent's teams, for the policy) before anything else.
 *
 * Forgotten, all of it, whenever access may have changed:
 * - at once, on any write this process makes to sessions, agents, teams or memberships (the write
 *   watch sees the statement as it is sent and again when it has answered);
 * - on NOTIFY `access_changed`, which the database sends at the commit of such a write by any other
 *   process (migration 202611270001), the command line's firm verification included.
 *
 * While that channel is not heard (starting, or its connection lost) nothing is kept. A read that began
 * before a change is not kept after it (the generation).
 */
export function createSessionCache<Kept>(
  ttlMs: number,
  /** Without it (a worker) nothing is kept. */
  handle?: Pick<DbHandle, 'writes' | 'listen'>,
  max = 10_000,
) {
  const entries = new Map<string, { session: Kept; until: number }>()
  let generation = 0
  let hearing = false
  const forget = () => {
    generation++
    entries.clear()
  }
  const keeps = ttlMs > 0 && handle !== undefined
  const stopWatching = keeps
    ? handle.writes.watch(ACCESS_TABLES, (write) => changesAccess(write, ttlMs) && forget())
    : () => {}
  const stopListening = keeps
    ? handle.listen('access_changed', ({ listening }) => {
        hearing = listening
        forget()
      })
    : async () => {}

  return {
    /** The session kept for this id, unless its time is up. */
    get(id: string): Kept | undefined {
      const entry = entries.get(id)
      if (!entry) return undefined
      if (entry.until > Date.now()) return entry.session
      entries.delete(id)
      return undefined
    },

    /** Where a read of the database starts: `keep` takes its answer only if nothing changed since. */
    begin(): number {
      return generation
    },

    keep(id: string, session: Kept, since: number): void {
      if (!hearing || since !== generation) return
      setNewest(entries, id, { session, until: Date.now() + ttlMs }, max)
    },

    forget,

    async close(): Promise<void> {
      stopWatching()
      await stopListening()
      forget()
    },
  }
}

export type SessionCache<Kept> = ReturnType<typeof createSessionCache<Kept>>
