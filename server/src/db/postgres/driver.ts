import { createHash } from 'node:crypto'
import net from 'node:net'
import {
  AbortedTransactionError,
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import pg from 'pg'
import { PREPARED_PER_CONNECTION, poolSettings } from './settings.ts'

/**
 * A pg client on a socket we make ourselves (pg's public `stream` option), so the driver may cork it:
 * statements queued while it is corked leave in one write.
 */
class CorkableClient extends pg.Client {
  readonly socket: net.Socket
  constructor(config: pg.ClientConfig) {
    const socket = new net.Socket()
    super({ ...config, stream: () => socket })
    this.socket = socket
  }
}
type PooledClient = CorkableClient & pg.PoolClient

/** Kysely's answer for a pg result (as Kysely's own Postgres driver gives it). */
function answer<R>(result: pg.QueryResult): QueryResult<R> {
  const { command, rowCount } = result
  const writes = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
  return {
    numAffectedRows: writes ? BigInt(rowCount ?? 0) : undefined,
    rows: (result.rows ?? []) as R[],
  }
}

/**
 * One pooled connection, as Kysely sees it:
 *
 * - Every statement with parameters is prepared once on it, named by its text (decision 016):
 *   PostgreSQL parses and plans it once, not on every call. The query builder makes the same text for
 *   the same shape, so a process has a few hundred; past PREPARED_PER_CONNECTION the rest go unprepared.
 * - A transaction's BEGIN is owed, not sent (decision 022): the driver's `beginTransaction` only marks
 *   it, and the transaction's first statement takes it along in the same write (the socket corked
 *   around both; the connection pipelines, so both go before either is answered). That statement
 *   fails if the BEGIN failed. A transaction that ends before any statement never opened one on the
 *   server, and ends with nothing sent.
 */
class PooledConnection implements DatabaseConnection {
  /** The plain BEGIN of a transaction opened and not yet sent. */
  owesBegin = false
  /** A failed ROLLBACK leaves the connection in an unknown state: the pool drops it on release. */
  discarded = false
  private readonly names = new Map<string, string>()

  constructor(readonly client: PooledClient) {}

  /** Sends one statement: prepared when it has parameters and the connection still names new ones. */
  private send(query: CompiledQuery): Promise<pg.QueryResult> {
    const text = query.sql
    const values = query.parameters as unknown[]
    if (values.length === 0) return this.client.query(text)
    let name = this.names.get(text)
    if (!name && this.names.size < PREPARED_PER_CONNECTION) {
      name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`
      this.names.set(text, name)
    }
    return name ? this.client.query({ name, text, values }) : this.client.query(text, values)
  }

  /** Sends a statement without parameters that ends or opens a transaction, now. */
  control(text: string): Promise<pg.QueryResult> {
    return this.client.query(text)
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.discarded) throw new Error('the connection was discarded after a failed rollback')
    if (!this.owesBegin) return answer<R>(await this.send(query))
    this.owesBegin = false
    const { socket } = this.client
    socket.cork()
    let sent: [Promise<pg.QueryResult>, Promise<pg.QueryResult>]
    try {
      sent = [this.control('begin'), this.send(query)]
    } finally {
      socket.uncork()
    }
    const [, result] = await Promise.all(sent)
    return answer<R>(result)
  }

  // biome-ignore lint/correctness/useYield: a pipelining connection cannot hold a cursor open
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on pipelining connections: read in pages instead')
  }
}

function startTransaction(settings: TransactionSettings): string {
  let text = 'start transaction'
  if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`
  if (settings.accessMode) text += ` ${settings.accessMode}`
  return text
}

/**
 * Kysely's driver over a pg pool of corkable, pipelining connections. Transactions go through Kysely's
 * own `beginTransaction`, `commitTransaction` and `rollbackTransaction` calls: a plain BEGIN is owed to
 * the first statement (PooledConnection), one with an isolation level or access mode is sent at once.
 */
class PooledDriver implements Driver {
  private readonly connections = new WeakMap<pg.PoolClient, PooledConnection>()
  constructor(
    private readonly pool: pg.Pool,
    private readonly waits: PoolWaits,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = (await this.waits.timed(this.pool)) as PooledClient
    let connection = this.connections.get(client)
    if (!connection) {
      connection = new PooledConnection(client)
      this.connections.set(client, connection)
    }
    return connection
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as PooledConnection
    if (settings.isolationLevel || settings.accessMode) await c.control(startTransaction(settings))
    else c.owesBegin = true
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as PooledConnection
    if (c.owesBegin) {
      c.owesBegin = false
      return
    }
    // PostgreSQL answers COMMIT with ROLLBACK when an earlier statement left the transaction aborted.
    const { command } = await c.control('commit')
    if (command === 'ROLLBACK') throw new AbortedTransactionError()
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as PooledConnection
    if (c.owesBegin) {
      c.owesBegin = false
      return
    }
    try {
      await c.control('rollback')
    } catch (err) {
      c.discarded = true
      throw err
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${pg.escapeIdentifier(name)}`))
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${pg.escapeIdentifier(name)}`))
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${pg.escapeIdentifier(name)}`))
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as PooledConnection
    c.client.release(c.discarded)
  }

  async destroy(): Promise<void> {
    await this.pool.end()
  }
}

/** PostgreSQL through PooledDriver: Kysely's own compiler, adapter and introspector. */
class PooledDialect implements Dialect {
  constructor(
    private readonly pool: pg.Pool,
    private readonly waits: PoolWaits,
  ) {}
  createDriver(): Driver {
    return new PooledDriver(this.pool, this.waits)
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }
  createAdapter() {
    return new PostgresAdapter()
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's Dialect interface takes any database
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db)
  }
}

/**
 * How long callers queue for a pooled connection (a pool too small for the load): load shedding reads
 * it (decision 047). Only a caller that finds every connection in use and none left to open waits for
 * the pool; opening a new connection is the server's time, not the pool's.
 */
export class PoolWaits {
  private readonly pending = new Set<number>()
  private longest = 0

  timed(pool: pg.Pool): Promise<pg.PoolClient> {
    if (pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 10)) return pool.connect()
    const started = performance.now()
    this.pending.add(started)
    return pool.connect().finally(() => {
      this.pending.delete(started)
      this.longest = Math.max(this.longest, performance.now() - started)
    })
  }

  /** The longest wait since the last call (ms), a wait still going on included. */
  takeLongest(): number {
    const now = performance.now()
    let waited = this.longest
    for (const started of this.pending) waited = Math.max(waited, now - started)
    this.longest = 0
    return Math.round(waited)
  }
}

/** A dialect over a new pool of at most `size` connections to `url` (settings.ts). */
export function postgresDialect(url: string, size: number, waits = new PoolWaits()): Dialect {
  const pool = new pg.Pool({ ...poolSettings(url, size), Client: CorkableClient as never })
  // A client losing its server must not crash the process, idle or checked out. pg emits 'error' on
  // the client whenever its connection dies; the pool listens only while the client is idle (and then
  // emits it here), so a client a request or a job holds (a transaction, a statement in flight) needs
  // a listener of its own. The statements it had in flight fail with the error (isConnectionLost), and
  // the pool discards the client when it is released: the next statement opens a new connection.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    client.on('error', () => {})
  })
  return new PooledDialect(pool, waits)
}
