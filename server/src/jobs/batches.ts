import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import { isConnectionLost } from '../db/errors.ts'
import { inTransaction, onCommit, type Trx } from '../db/transaction.ts'
import { backgroundFailures, type FailureSource } from '../failures.ts'

export interface Batches {
  /** Passes until one takes less than a full batch; answers how many rows were taken in all. */
  runOnce(): Promise<number>
  start(): void
  /** Waits for a pass in flight. */
  stop(): Promise<void>
}

/** What became of a row whose work failed by itself. */
export interface SetAside {
  /** Times its work has failed, this one included. */
  attempts: number
  /** When a pass may take it again; null when it is left for an operator. */
  retryAt: Date | null
  /** Said with the report (which row, whose). */
  context: Record<string, unknown>
}

/** The work of one kind of row, as the batch mechanism runs it. */
export interface BatchWork<T> {
  /**
   * Takes up to `size` rows that are due, locking them (`for update skip locked`) and deleting or
   * marking them in `trx`.
   */
  take(trx: Trx, size: number): Promise<T[]>
  /** Does the rows' work in the same transaction. */
  work(trx: Trx, rows: T[]): Promise<void>
  /** Marks a row whose work failed by itself so that passes leave it until later (or to an operator). */
  setAside(trx: Trx, row: T, error: unknown): Promise<SetAside>
}

/**
 * A failure that is not the rows' but a passing one of the database (connection lost, a restart, a
 * deadlock or serialization failure, a statement timeout, no connection left): the same batch may well
 * succeed at the next pass, so no row is to blame.
 */
function isPassing(err: unknown): boolean {
  if (isConnectionLost(err)) return true
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^(40[0-9A-Z]{3}|57014|55P03|53[0-9A-Z]{3})$/.test(code)
}

/**
 * Work the worker does in batches for rows that many transactions left for it (a consenting guest's
 * welcome, decision 053). Each pass is one transaction: it takes up to `size` rows, locking what it
 * takes with `for update skip locked` and deleting or marking it, and does all of their work in that
 * same transaction, answering how many it took. A pass commits with everything it did, or rolls back
 * (an error, a worker killed, PostgreSQL gone) and leaves its rows to the next pass of this worker or
 * another; two workers passing at once take different rows. So each row's work happens exactly once.
 *
 * A batch that fails for a reason of one row (its data breaks a constraint, a value the work cannot take)
 * would fail every pass and hold every row behind it. So when a batch fails, unless the failure is a
 * passing one of the database, the same pass runs again with each row in a savepoint of its own: the
 * rows that succeed are done, a row that fails is set aside (`setAside`) and reported, at its first
 * failure and when it is left for an operator. If every row of a batch of several fails, the failure is
 * not one row's (a bug, a lost table): the pass fails whole, as before. The happy path pays nothing for
 * this: no savepoint unless the batch failed. One pass at a time in this process; a failure of a whole
 * pass is reported once, and the next tick tries again.
 */
export function createBatches<T>(
  d: {
    db: Db
    source: FailureSource
    size: number
    intervalMs: number
  } & BatchWork<T>,
): Batches {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | undefined
  let failing = false

  async function whole(trx: Trx): Promise<number> {
    const rows = await d.take(trx, d.size)
    if (rows.length > 0) await d.work(trx, rows)
    return rows.length
  }

  /** The batch again, each row in a savepoint of its own; a row that fails by itself is set aside. */
  async function oneByOne(trx: Trx): Promise<number> {
    const rows = await d.take(trx, d.size)
    const failed: Array<{ row: T; err: unknown }> = []
    for (const row of rows) {
      await sql`savepoint batch_row`.execute(trx)
      try {
        await d.work(trx, [row])
        await sql`release savepoint batch_row`.execute(trx)
      } catch (err) {
        if (isPassing(err)) throw err
        // A connection lost here fails the rollback, and with it the pass: nothing is set aside.
        await sql`rollback to savepoint batch_row`.execute(trx)
        failed.push({ row, err })
      }
    }
    if (failed.length > 1 && failed.length === rows.length) throw failed[0]?.err
    for (const { row, err } of failed) {
      const aside = await d.setAside(trx, row, err)
      // Told at a row's first failure and when it is left for an operator; a pass rolled back tells nothing.
      if (aside.attempts > 1 && aside.retryAt !== null) continue
      onCommit(trx, () =>
        backgroundFailures.report(d.source, err, {
          ...aside.context,
          setAside: true,
          attempts: aside.attempts,
          retryAt: aside.retryAt?.toISOString() ?? 'left for an operator',
        }),
      )
    }
    return rows.length
  }

  async function pass(): Promise<number> {
    try {
      return await inTransaction(d.db, whole)
    } catch (err) {
      if (isPassing(err)) throw err
    }
    return inTransaction(d.db, oneByOne)
  }

  async function runOnce(): Promise<number> {
    let total = 0
    for (;;) {
      const taken = await pass()
      total += taken
      if (taken < d.size) return total
    }
  }

  function tick() {
    if (running) return
    running = runOnce()
      .then(() => {
        failing = false
      })
      .catch((err) => {
        if (!failing) backgroundFailures.report(d.source, err)
        failing = true
      })
      .finally(() => {
        running = undefined
      })
  }

  return {
    runOnce,
    start() {
      if (timer) return
      timer = setInterval(tick, d.intervalMs)
      timer.unref()
    },
    async stop() {
      clearInterval(timer)
      timer = undefined
      await running
    },
  }
}
