import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { MetricSources } from '../lib/metrics.ts'
import type { Queues } from './queues.ts'

/**
 * Outbox rows due and not yet done (a delayed row waits for its time, and is not counted before it),
 * and how long the oldest of them has waited: the relay's and the workers' lag.
 */
export function outboxWaiting(db: Db): NonNullable<MetricSources['outbox']> {
  return async () => {
    const { rows } = await sql<{ waiting: number; oldestSeconds: number | null }>`
      select count(*)::int as waiting,
        extract(epoch from now() - min(coalesce(run_at, created_at)))::float8 as oldest_seconds
      from outbox
      where done_at is null and failed_at is null and parked_at is null
        and (run_at is null or run_at <= now())
    `.execute(db)
    const row = rows[0]
    return { waiting: row?.waiting ?? 0, oldestSeconds: row?.oldestSeconds ?? null }
  }
}

/** Consenting guests' welcomes still to do, by state (a row goes once its guest is welcomed). */
export function welcomesWaiting(db: Db): NonNullable<MetricSources['welcomes']> {
  return async () => {
    const { rows } = await sql<{ owed: number; setAside: number; forOperator: number }>`
      select count(*) filter (where retry_at is null or retry_at <= now())::int as owed,
        count(*) filter (where retry_at > now() and retry_at <> 'infinity')::int as set_aside,
        count(*) filter (where retry_at = 'infinity')::int as for_operator
      from guest_welcome
    `.execute(db)
    const row = rows[0]
    return { owed: row?.owed ?? 0, setAside: row?.setAside ?? 0, forOperator: row?.forOperator ?? 0 }
  }
}

/** BullMQ's job counts of every queue. */
export function queueCounts(queues: Queues): NonNullable<MetricSources['queues']> {
  return async () => {
    const entries = await Promise.all(
      Object.entries(queues).map(async ([name, queue]) => {
        const counts = await queue.getJobCounts('waiting', 'active', 'failed', 'delayed')
        return [
          name,
          {
            waiting: counts.waiting ?? 0,
            active: counts.active ?? 0,
            failed: counts.failed ?? 0,
            delayed: counts.delayed ?? 0,
          },
        ] as const
      }),
    )
    return Object.fromEntries(entries)
  }
}
