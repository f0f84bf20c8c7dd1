import type { Kysely } from 'kysely'
import type { Database } from './types.ts'
import type { WriteWatchPlugin } from './write-watch.ts'

export type Db = Kysely<Database>

/** Called on each notification; `listening` false while the channel is not heard (connecting, lost). */
export type Notified = (event: { listening: boolean }) => void

export interface DbHandle {
  db: Db
  /** 'postgres' when DATABASE_URL is set, 'embedded' for PGlite under ./data. */
  kind: 'postgres' | 'embedded'
  /** Writes this handle's own queries make, as they are made. */
  writes: WriteWatchPlugin
  /**
   * Hears NOTIFY on `channel` (from any process) until the answered function is called: `listening`
   * is false whenever notifications could be missed, and true again, once heard, with no notification
   * lost unseen in between (a reconnect calls with true, so what was kept meanwhile can be dropped).
   */
  listen(channel: string, onNotify: Notified): () => Promise<void>
  /**
   * The longest a statement waited for a pooled connection since the last call (ms), a wait still
   * going on included: load shedding reads it (decision 047). Always 0 on embedded PostgreSQL.
   */
  poolWaitMs(): number
  close(): Promise<void>
}
