import { type JobName, type JobPayload, jobNames, type QueueName } from '@porchlight/shared'
import type { Redis } from 'ioredis'
import { type ExpressionBuilder, sql } from 'kysely'
import type { Db } from '../db/database.ts'
import { inTransaction, onCommit, type Trx } from '../db/transaction.ts'
import type { Database } from '../db/types.ts'
import { backgroundFailures } from '../failures.ts'
import { batched } from '../lib/batched.ts'
import { trace } from '../lib/trace.ts'
import { within } from '../lib/within.ts'
import type { Queues } from './queues.ts'

export interface Outbox {
  /** Records a job in the caller's transaction; it reaches BullMQ only if that transaction commits. */
  add<Q extends QueueName, N extends JobName<Q>>(
    trx: Trx,
    queue: Q,
    name: N,
    payload: JobPayload<Q, N>,
    options?: { runAt?: Date | null },
  ): Promise<number>
  /** Records one job per payload, all in one statement: `add` for many at once. Answers their row ids. */
  addEach<Q extends QueueName, N extends JobName<Q>>(
    trx: Trx,
    queue: Q,
    name: N,
    payloads: Array<JobPayload<Q, N>>,
    options?: { runAt?: Date | null },
  ): Promise<number[]>
  /**
   * Records one job per entry, all in one statement, each due at its own time and in the trace of the
   * request that caused it (JSON as `carriedTrace` gives it; a batch the worker writes for many
   * requests). Answers their row ids.
   */
  addScheduled<Q extends QueueName, N extends JobName<Q>>(
    trx: Trx,
    queue: Q,
    name: N,
    jobs: Array<{ payload: JobPayload<Q, N>; runAt: Date; trace: string | null }>,
  ): Promise<number[]>
  /** Hands due rows to BullMQ once (new ones, and unfinished ones handed over a while ago); returns how many. */
  relayOnce(): Promise<number>
  /** Asks for a relay soon (after a commit) without waiting for the next tick. */
  kick(): void
  /** The next relay hands every unfinished row to BullMQ again, however recently: Redis may have lost them. */
  reconcile(): void
  /** A job's effect happened: its row is done and never relayed again. */
  markDone(jobId: string | undefined): Promise<void>
  /** BullMQ gave up on a job after its last attempt: its row stays as failed, for an operator. */
  markFailed(jobId: string | undefined, reason: string): Promise<void>
  start(intervalMs: number): void
  /** No relay starts after this (a commit's kick included) until start(); resolves once the one under way, and any it asked for, ended. */
  stop(): Promise<void>
}

export interface OutboxOptions {
  batchSize: number
  /** An unfinished row is handed to BullMQ again this long after the last time (a no-op if Redis has it). */
  redeliverAfterMs: number
}

/** The row's id and its random key (none on rows written before keys were kept). */
interface JobRef {
  id: number
  key: string | null
}

/**
 * A job's name in BullMQ. The id alone could name a job Redis already ran: a database restored, or
 * made anew, against the same Redis counts its ids again. The key makes the name the row's own.
 */
export function outboxJobId(row: { id: number; jobKey: string | null }): string {
  return row.jobKey ? `outbox-${row.id}-${row.jobKey}` : `outbox-${row.id}`
}

/** The key of a job's data that carries the trace of the request that caused it (decision 047). */
export const TRACE_KEY = '$trace'

/**
 * The request (or job) under way, as the rows it causes keep it (JSON for a jsonb column): its log
 * lines and theirs share an id. Null outside one.
 */
export function carriedTrace(): string | null {
  const context = trace.current()
  return context ? JSON.stringify(context) : null
}

/** A job's data: its payload, with the trace of the request that caused it when there was one. */
function withTrace(payload: unknown, context: { requestId: string } | null): unknown {
  if (!context || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload
  return { ...payload, [TRACE_KEY]: context }
}

function jobRefOf(jobId: string | undefined): JobRef | null {
  const match = /^outbox-(\d+)(?:-([0-9a-f-]{36}))?$/.exec(jobId ?? '')
  return match ? { id: Number(match[1]), key: match[2] ?? null } : null
}

function undeliverable(queues: Queues, queue: string, jobName: string): string | null {
  if (!(queue in queues)) return `unknown queue ${queue}`
  if (!(jobNames[queue as QueueName] as readonly string[]).includes(jobName)) {
    return `unknown job ${jobName} in queue ${queue}`
  }
  return null
}

/** When a row never handed to BullMQ is due: its run_at, or when it was written (outbox_due_idx). */
const dueAt = sql<Date>`coalesce(run_at, created_at)`
const open = (eb: ExpressionBuilder<Database, 'outbox'>) =>
  eb.and([eb('doneAt', 'is', null), eb('failedAt', 'is', null), eb('parkedAt', 'is', null)])

/**
 * The relay's read: rows never handed over that are due, by due time, then rows handed over before
 * `handedBefore` and still not done, by when they were. Each half is a range of its own partial index
 * (outbox_due_idx, outbox_relayed_idx; decision 045), so a pass reads only the rows it hands over:
 * none of the follow-ups due in days, none of the jobs BullMQ holds now. `skip locked`: several relays
 * (API processes, workers) share the work without blocking each other.
 */
export function dueRows(db: Db | Trx, handedBefore: Date, limit: number) {
  const columns = ['id', 'jobKey', 'queue', 'jobName', 'payload', 'trace'] as const
  return db
    .with('fresh', (qb) =>
      qb
        .selectFrom('outbox')
        .select(columns)
        .where('relayedAt', 'is', null)
        .where(open)
        .where(dueAt, '<=', sql<Date>`now()`)
        .orderBy(dueAt)
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .with('again', (qb) =>
      qb
        .selectFrom('outbox')
        .select(columns)
        .where('relayedAt', 'is not', null)
        .where(open)
        .where('relayedAt', '<', handedBefore)
        .orderBy('relayedAt')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .selectFrom('fresh')
    .selectAll()
    .unionAll((qb) => qb.selectFrom('again').selectAll())
    .limit(limit)
}

/**
 * PostgreSQL is the record of what is still to do. A row is relayed when it is due (a delayed job waits
 * here, not in Redis) and stays open until its worker marks it done, or failed when BullMQ gives up.
 * Open rows handed over more than `redeliverAfterMs` ago are handed over again, and all of them when the
 * Redis connection comes back (Redis may have restarted empty): the job is named after the row, so a job
 * Redis still holds is never added twice. With `queues` null (a command-line tool) rows only wait for a
 * process that has queues to relay them.
 */
export function createOutbox(
  db: Db,
  queues: Queues | null,
  redis: Redis | null,
  { batchSize, redeliverAfterMs }: OutboxOptions,
): Outbox {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | undefined
  let again = false
  let failing = false
  let stopped = false
  // Set by reconcile(): rows handed over before this moment are handed over again, batch by batch.
  let reconcileBefore: Date | null = null

  async function relayOnce(): Promise<number> {
    // Without Redis there is nothing to relay to; rows wait and no transaction is held open.
    if (!queues || redis?.status !== 'ready') throw new Error('Redis is not answering')
    const reconciling = reconcileBefore
    const handedBefore = reconciling ?? new Date(Date.now() - redeliverAfterMs)
    const moved = await inTransaction(db, async (trx) => {
      const rows = await dueRows(trx, handedBefore, batchSize).execute()
      if (rows.length === 0) return 0
      // One round trip per queue; the job is named after its row, so relaying a row twice never makes a second job.
      const byQueue = new Map<QueueName, typeof rows>()
      const parked: number[] = []
      for (const row of rows) {
        const reason = undeliverable(queues, row.queue, row.jobName)
        if (reason) {
          // One row this build cannot deliver must not hold back every row behind it.
          parked.push(row.id)
          await trx
            .updateTable('outbox')
            .set({ parkedAt: new Date(), parkedReason: reason })
            .where('id', '=', row.id)
            .execute()
          onCommit(trx, () =>
            backgroundFailures.report('outbox-parked', new Error(reason), { outboxId: row.id }),
          )
          continue
        }
        const list = byQueue.get(row.queue as QueueName) ?? []
        list.push(row)
        byQueue.set(row.queue as QueueName, list)
      }
      for (const [name, list] of byQueue) {
        const jobs = list.map((row) => ({
          name: row.jobName,
          data: withTrace(row.payload, row.trace),
          opts: { jobId: outboxJobId(row) },
        }))
        await within(5000, queues[name].addBulk(jobs), 'Redis is not answering')
      }
      const relayed = rows.filter((r) => !parked.includes(r.id)).map((r) => r.id)
      if (relayed.length > 0) {
        await trx.updateTable('outbox').set({ relayedAt: new Date() }).where('id', 'in', relayed).execute()
      }
      return rows.length
    })
    if (reconciling && reconcileBefore === reconciling && moved < batchSize) reconcileBefore = null
    return moved
  }

  function tick(): void {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    running = relayOnce()
      .then((moved) => {
        failing = false
        if (moved > 0) again = true
      })
      // Redis or PostgreSQL away: rows stay in the outbox and the next tick tries again. An outage is
      // reported once, when it starts, not four times a second for as long as it lasts.
      .catch((err) => {
        if (!failing) backgroundFailures.report('outbox-relay', err)
        failing = true
      })
      .finally(() => {
        running = undefined
        if (again) {
          again = false
          setImmediate(tick)
        }
      })
  }

  async function addScheduled(
    trx: Trx,
    queue: QueueName,
    name: string,
    jobs: Array<{ payload: unknown; runAt: Date | null; trace: string | null }>,
  ): Promise<number[]> {
    if (jobs.length === 0) return []
    const rows = await trx
      .insertInto('outbox')
      .values(
        jobs.map((job) => ({
          queue,
          jobName: name,
          payload: JSON.stringify(job.payload),
          runAt: job.runAt,
          trace: job.trace,
        })),
      )
      .returning('id')
      .execute()
    onCommit(trx, tick)
    return rows.map((row) => row.id)
  }

  function addEach(
    trx: Trx,
    queue: QueueName,
    name: string,
    payloads: unknown[],
    options: { runAt?: Date | null } = {},
  ): Promise<number[]> {
    // The request (or job) under way that caused these jobs: its log lines and theirs share an id.
    const traced = carriedTrace()
    const runAt = options.runAt ?? null
    return addScheduled(
      trx,
      queue,
      name,
      payloads.map((payload) => ({ payload, runAt, trace: traced })),
    )
  }

  // Jobs finishing at once (a worker runs several) are marked done together, in one statement. A row
  // is marked only by its own job: one named like it from before a restore leaves it open.
  const markDone = batched(async (refs: JobRef[]) => {
    await sql`
      update outbox o set done_at = now()
      from unnest(${refs.map((r) => r.id)}::bigint[], ${refs.map((r) => r.key)}::uuid[]) as job(id, key)
      where o.id = job.id and o.job_key is not distinct from job.key and o.done_at is null
    `.execute(db)
    return refs.map(() => undefined)
  })

  function reconcile(): void {
    reconcileBefore = new Date()
    tick()
  }

  return {
    async add(trx, queue, name, payload, options) {
      const [id] = await addEach(trx, queue, name, [payload], options)
      if (id === undefined) throw new Error('the outbox stored no row')
      return id
    },
    addEach,
    addScheduled,
    relayOnce,
    kick: tick,
    reconcile,
    async markDone(jobId) {
      const ref = jobRefOf(jobId)
      if (ref) await markDone(ref)
    },
    async markFailed(jobId, reason) {
      const ref = jobRefOf(jobId)
      if (!ref) return
      await db
        .updateTable('outbox')
        .set({ failedAt: new Date(), failedReason: reason.slice(0, 2000) })
        .where('id', '=', ref.id)
        .where(sql<boolean>`job_key is not distinct from ${ref.key}::uuid`)
        .where('doneAt', 'is', null)
        .execute()
    },
    start(intervalMs) {
      stopped = false
      if (timer) return
      timer = setInterval(tick, intervalMs)
      // Redis back after an outage or a restart: whatever it held may be gone.
      redis?.on('ready', reconcile)
      if (redis?.status === 'ready') reconcile()
    },
    async stop() {
      redis?.off('ready', reconcile)
      if (timer) clearInterval(timer)
      timer = undefined
      stopped = true
      // A relay that moved rows asks for another as it ends; that one does not start now.
      while (running) await running
    },
  }
}
