import type { Transaction } from 'kysely'
import { backgroundFailures } from '../failures.ts'
import type { Db } from './database.ts'
import type { Database } from './types.ts'

export type Trx = Transaction<Database>

const afterCommit = new WeakMap<Trx, Array<() => void | Promise<void>>>()

/**
 * Runs `work` in one transaction; callbacks registered with `onCommit(trx, …)` run only once the
 * transaction has committed, so no socket event or side effect ever announces a rolled-back change.
 */
export async function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  let pending: Array<() => void | Promise<void>> = []
  const result = await db.transaction().execute(async (trx) => {
    afterCommit.set(trx, [])
    const value = await work(trx)
    pending = afterCommit.get(trx) ?? []
    return value
  })
  await afterCommitted(pending)
  return result
}

/**
 * Runs, one after another, what follows a change once committed: by `inTransaction`, or by the caller
 * of one statement run on its own (atomic without a transaction; decision 061).
 */
export async function afterCommitted(pending: Array<() => void | Promise<void>>): Promise<void> {
  for (const run of pending) {
    try {
      await run()
    } catch (err) {
      // After-commit work is best effort: the committed state is the truth and clients refetch.
      backgroundFailures.report('after-commit', err)
    }
  }
}

/** Defers `run` until `trx` commits. Outside inTransaction it is a programming error. */
export function onCommit(trx: Trx, run: () => void | Promise<void>): void {
  const list = afterCommit.get(trx)
  if (!list) throw new Error('onCommit needs a transaction opened with inTransaction()')
  list.push(run)
}
