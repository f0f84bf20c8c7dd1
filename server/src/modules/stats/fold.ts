import type { Db } from '../../db/database.ts'
import { backgroundFailures } from '../../failures.ts'
import { foldStatistics } from './repo.ts'

/** How often the worker folds the visits waiting into the kept figures (decision 049). */
export const FOLD_INTERVAL_MS = 1000

/**
 * The worker's fold of the kept statistics: every second, the visits a sign-in named in `stats_pending`
 * go into the agents' and teams' figures in one batch, so a read (which folds first) finds little left.
 * One fold at a time in this process; PostgreSQL away is reported once, and the next tick tries again.
 */
export function startStatisticsFold(db: Db, intervalMs = FOLD_INTERVAL_MS) {
  let running: Promise<unknown> | undefined
  let failing = false
  const tick = () => {
    if (running) return
    running = foldStatistics(db)
      .then(() => {
        failing = false
      })
      .catch((err) => {
        if (!failing) backgroundFailures.report('stats-fold', err)
        failing = true
      })
      .finally(() => {
        running = undefined
      })
  }
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
