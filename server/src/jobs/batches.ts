import type { Db } from '../db/database.ts'
import { inTransaction, type Trx } from '../db/transaction.ts'
import { backgroundFailures, type FailureSource } from '../failures.ts'

export interface Batches {
  /** Passes until one takes less than a full batch; answers how many rows were taken in all. */
  runOnce(): Promise<number>
  start(): void
  /** Waits for a pass in flight. */
  stop(): Promise<void>
}

/**
 * Work the worker does in batches for rows that many transactions left for it (a consenting guest's
 * welcome, decision 053). Each pass is one transaction: `batch` takes up to `size` rows, locking what it
 * takes with `for update skip locked` and deleting or marking it, and does all of their work in that
 * same transaction, answering how many it took. A pass commits with everything it did, or rolls back
 * (an error, a worker killed, PostgreSQL gone) and leaves its rows to the next pass of this worker or
 * another; two workers passing at once take different rows. So each row's work happens exactly once.
 * One pass at a time in this process; a failure is reported once, and the next tick tries again.
 */
export function createBatches(d: {
  db: Db
  source: FailureSource
  size: number
  intervalMs: number
  batch: (trx: Trx, size: number) => Promise<number>
}): Batches {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | undefined
  let failing = false

  async function runOnce(): Promise<number> {
    let total = 0
    for (;;) {
      const taken = await inTransaction(d.db, (trx) => d.batch(trx, d.size))
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
