import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import type { Writable } from 'node:stream'
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Config } from '../config.ts'
import type { Database } from './types.ts'
import { WriteWatchPlugin } from './write-watch.ts'

export type Db = Kysely<Database>

const INT8 = 20
const NUMERIC = 1700
const DATE = 1082

// ids fit in a double; numeric money and percentages are small; dates stay calendar strings.
pg.types.setTypeParser(INT8, (v) => Number(v))
pg.types.setTypeParser(NUMERIC, (v) => Number(v))
pg.types.setTypeParser(DATE, (v) => v)

const camelCase = new CamelCasePlugin()

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

/** Measures how long `pool.connect()` callers wait for a connection (a pool too small for the load). */
function watchPoolWaits(pool: pg.Pool): () => number {
  const pending = new Set<{ started: number }>()
  let longest = 0
  const connect = pool.connect.bind(pool)
  // Kysely asks for connections with the promise form; a callback caller is not measured.
  pool.connect = ((callback?: Parameters<typeof connect>[0]) => {
    // Only a caller that queues for a connection (every one in use, none may be opened) waits for
    // the pool; opening a new connection is the server's time, not the pool's.
    if (callback || pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 10)) {
      return callback ? connect(callback) : connect()
    }
    const waiting = { started: performance.now() }
    pending.add(waiting)
    return connect().finally(() => {
      pending.delete(waiting)
      longest = Math.max(longest, performance.now() - waiting.started)
    })
  }) as typeof pool.connect
  return () => {
    const now = performance.now()
    let waited = longest
    for (const { started } of pending) waited = Math.max(waited, now - started)
    longest = 0
    return Math.round(waited)
  }
}

/** LISTEN on a connection of its own, reconnecting after a second when the connection is lost. */
function listenOver(url: string, channel: string, onNotify: Notified): () => Promise<void> {
  let client: pg.Client | null = null
  let stopped = false
  let retry: NodeJS.Timeout | undefined
  const connect = async () => {
    const next = new pg.Client({ connectionString: url })
    client = next
    const lost = () => {
      if (client !== next) return
      client = null
      onNotify({ listening: false })
      if (!stopped) retry = setTimeout(connect, 1000)
    }
    next.on('error', lost)
    next.on('end', lost)
    next.on('notification', () => onNotify({ listening: true }))
    try {
      await next.connect()
      await next.query(`listen ${pg.escapeIdentifier(channel)}`)
      if (stopped) await next.end()
      else onNotify({ listening: true })
    } catch {
      lost()
      await next.end().catch(() => {})
    }
  }
  onNotify({ listening: false })
  void connect()
  return async () => {
    stopped = true
    clearTimeout(retry)
    const last = client
    client = null
    await last?.end().catch(() => {})
  }
}

/** Statements a connection prepares at most; beyond them, the rest are sent unprepared. */
const PREPARED_PER_CONNECTION = 500

/**
 * Starts the text of a statement that is its transaction's last: the connection sends the COMMIT with
 * it (tuneConnection). Elsewhere (PGlite) it is a comment, and the transaction commits as usual.
 */
export const AND_COMMIT = '/* and commit */ '

/** What pg answers for a statement that returns no rows. */
function emptyResult(command: string) {
  return { command, rowCount: null, oid: 0, rows: [], fields: [] }
}

/**
 * Two things on every pooled connection, under the query builder:
 *
 * - Every statement with parameters is prepared once per connection, named by its text: PostgreSQL
 *   parses and plans it once, not on every call (a guest sign-in's statements spent as long in parse
 *   and bind as in execution). The query builder makes the same text for the same shape, so a process
 *   has a few hundred of them; past PREPARED_PER_CONNECTION a connection sends the rest unprepared.
 * - A transaction's BEGIN travels with its first statement, in the same write, instead of costing a
 *   round trip of its own (decision 022). The BEGIN is answered at once and owed; the next statement on
 *   the connection sends it first (the connection pipelines, so both go before either is answered) and
 *   fails if it failed. A transaction that ends before any statement (a COMMIT or ROLLBACK still owing
 *   the BEGIN) never opened one on the server, so that ends with nothing sent.
 * - A statement whose text starts with AND_COMMIT is its transaction's last: its COMMIT goes in the same
 *   write (decision 024). It answers once both are answered, and fails if either failed (a COMMIT
 *   after a failed statement rolls back). The transaction's own COMMIT or ROLLBACK then ends it with
 *   nothing sent; any other statement in it fails, as it would run outside the transaction.
 */
function tuneConnection(client: pg.PoolClient) {
  const send = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>
  const names = new Map<string, string>()
  const prepared = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0) {
      return send(config, values, callback)
    }
    let name = names.get(config)
    if (!name && names.size < PREPARED_PER_CONNECTION) {
      name = `s${createHash('sha1').update(config).digest('hex').slice(0, 20)}`
      names.set(config, name)
    }
    return name ? send({ name, text: config, values }, callback) : send(config, values, callback)
  }
  let owesBegin = false
  // A transaction the query builder began and has not ended; `committed` once its last statement
  // carried the COMMIT.
  let open = false
  let committed = false
  // pg writes each statement as it is queued on a pipelining connection: corked, they are one write.
  const corked = <T>(send: () => T): T => {
    const stream = (client as unknown as { connection?: { stream?: Writable } }).connection?.stream
    stream?.cork()
    try {
      return send()
    } finally {
      stream?.uncork()
    }
  }
  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    const ends = config === 'commit' || config === 'rollback'
    if (committed) {
      if (ends) {
        committed = false
        open = false
        return Promise.resolve(emptyResult(config.toUpperCase()))
      }
      return Promise.reject(new Error('the transaction committed with its last statement'))
    }
    // Only the query builder's own promise-style BEGIN (the Postgres driver's text) is deferred.
    if (config === 'begin' && callback === undefined && typeof values !== 'function') {
      owesBegin = true
      open = true
      return Promise.resolve(emptyResult('BEGIN'))
    }
    if (ends) open = false
    // Outside a transaction the statement commits on its own: the marker is only a comment there.
    if (open && typeof config === 'string' && config.startsWith(AND_COMMIT) && callback === undefined) {
      committed = true
      const begun = owesBegin
      owesBegin = false
      return corked(() => {
        const answers = [
          begun ? send('begin') : undefined,
          prepared(config, values),
          send('commit') as Promise<{ command: string }>,
        ] as const
        return Promise.all(answers).then(([, answer, commit]) => {
          if (commit.command !== 'COMMIT') throw new Error('the transaction was rolled back')
          return answer
        })
      })
    }
    if (!owesBegin) return prepared(config, values, callback)
    owesBegin = false
    if (config === 'commit' || config === 'rollback') {
      return Promise.resolve(emptyResult(config.toUpperCase()))
    }
    if (callback !== undefined || typeof values === 'function') {
      // A callback-style statement has no promise to fail with the BEGIN: the BEGIN goes first, and a
      // connection that cannot take it fails the statement after it too.
      void send('begin').catch(() => {})
      return prepared(config, values, callback)
    }
    return corked(() => {
      const begun = send('begin')
      const result = prepared(config, values, callback)
      return Promise.all([begun, result]).then(([, answer]) => answer)
    })
  }) as typeof client.query
}

/**
 * How long a pooled connection may sit idle before it is closed. A new connection is dear: its server
 * process loads the catalog and compiles the statistics triggers, and each statement is prepared again
 * on it (tuneConnection). With pg's default of 10 s, the first burst after a quiet spell (the first
 * guests at a door) opened up to twenty connections at once, and its first sign-ins waited 0.3–1 s.
 */
export const IDLE_CONNECTION_MS = 10 * 60_000

/**
 * Settings every pooled connection starts with. `jit=off`: PostgreSQL compiles a statement to machine
 * code when its estimated cost passes `jit_above_cost`, and an estimate swells with a table's size or
 * a 200-element array parameter while the statement itself still runs in a millisecond. The team read
 * of 200 agents at once (policy/access.ts) ran in 0.5 ms and spent 374 ms compiling (Inlining 46,
 * Optimization 198, Emission 127 ms, EXPLAIN ANALYZE). Our statements are short: none gains from it.
 */
export const CONNECTION_OPTIONS = '-c jit=off'

export function createPostgresDb(url: string, poolSize = 10): DbHandle {
  // Pipelining: a statement queued while another is out is sent at once (a deferred BEGIN rides on it).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    pipeline: true,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    options: CONNECTION_OPTIONS,
  })
  // A client losing its server must not crash the process, idle or checked out. pg emits 'error' on
  // the client whenever its connection dies; the pool listens only while the client is idle (and then
  // emits it here), so a client a request or a job holds (a transaction, a statement in flight) needs
  // a listener of its own. The statements it had in flight fail with the error (isConnectionLost), and
  // the pool discards the client when it is released: the next statement opens a new connection.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    client.on('error', () => {})
    tuneConnection(client)
  })
  const poolWaitMs = watchPoolWaits(pool)
  const writes = new WriteWatchPlugin()
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [camelCase, writes] })
  return {
    db,
    kind: 'postgres',
    writes,
    listen: (channel, onNotify) => listenOver(url, channel, onNotify),
    poolWaitMs,
    close: () => db.destroy(),
  }
}

/** Whether a process with this id is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * PGlite serves one process: a second one on the same data (`pnpm firm:verify` while `pnpm start`
 * runs) would corrupt it. The first takes a pid file; another is refused with what to do instead.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lock = `${dataDir}.pid`
  const holder = Number(await fs.readFile(lock, 'utf8').catch(() => ''))
  if (holder && holder !== process.pid && alive(holder)) {
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${holder} (pnpm start). Stop it first, or set DATABASE_URL.`,
    )
  }
  await fs.writeFile(lock, String(process.pid))
  return () => fs.rm(lock, { force: true })
}

export async function createEmbeddedDb(dataDir: string): Promise<DbHandle> {
  const memory = dataDir.startsWith('memory://')
  if (!memory) await fs.mkdir(dataDir, { recursive: true })
  const unlock = memory ? async () => {} : await lockDataDir(dataDir)
  const [{ PGlite }, { PGliteDialect }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('kysely-pglite-dialect'),
    // The trigram indexes of the prospect name search (migration 202611240007).
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ])
  const pglite = await PGlite.create(dataDir, {
    parsers: { [INT8]: Number, [NUMERIC]: Number, [DATE]: (v: string) => v },
    extensions: { pg_trgm },
  })
  const writes = new WriteWatchPlugin()
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), plugins: [camelCase, writes] })
  return {
    db,
    kind: 'embedded',
    writes,
    // The data is this process's alone (the lock above): every write to it is one of this handle's.
    listen: (_channel, onNotify) => {
      onNotify({ listening: true })
      return async () => {}
    },
    poolWaitMs: () => 0,
    close: async () => {
      await db.destroy()
      await unlock()
    },
  }
}

export function createDb(config: Config['db']): Promise<DbHandle> {
  return config.url ? Promise.resolve(createPostgresDb(config.url)) : createEmbeddedDb(config.dataDir)
}
