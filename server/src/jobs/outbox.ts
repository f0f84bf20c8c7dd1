import { type JobName, type JobPayload, jobNames, type QueueName } from '@porchlight/shared'
import type { Db } from '../db/database.ts'
import { inTransaction, onCommit, type Trx } from '../db/transaction.ts'
import { backgroundFailures } from '../failures.ts'
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
  /** Moves waiting rows into BullMQ once; returns how many were moved. */
  relayOnce(): Promise<number>
  /** Asks for a relay soon (after a commit) without waiting for the next tick. */
  kick(): void
  start(intervalMs: number): void
  stop(): Promise<void>
}

export function outboxJobId(outboxId: number): string {
  return `outbox-${outboxId}`
}

const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Redis is not answering')), ms)),
  ])

function undeliverable(queues: Queues, queue: string, jobName: string): string | null {
  if (!(queue in queues)) return `unknown queue ${queue}`
  if (!(jobNames[queue as QueueName] as readonly string[]).includes(jobName)) {
    return `unknown job ${jobName} in queue ${queue}`
  }
  return null
}

/** With `queues` null (a command-line tool) rows only wait for a process that has queues to relay them. */
export function createOutbox(
  db: Db,
  queues: Queues | null,
  redisReady: () => boolean,
  batchSize = 100,
): Outbox {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | undefined
  let again = false
  let failing = false

  async function relayOnce(): Promise<number> {
    // Without Redis there is nothing to relay to; rows wait and no transaction is held open.
    if (!queues || !redisReady()) throw new Error('Redis is not answering')
    return inTransaction(db, async (trx) => {
      // skip locked: several relays (API processes, workers) share the work without blocking each other.
      const rows = await trx
        .selectFrom('outbox')
        .select(['id', 'queue', 'jobName', 'payload', 'runAt'])
        .where('relayedAt', 'is', null)
        .where('parkedAt', 'is', null)
        .orderBy('id')
        .limit(batchSize)
        .forUpdate()
        .skipLocked()
        .execute()
      if (rows.length === 0) return 0
      // One round trip per queue; jobId = outbox id, so relaying the same row twice never makes a second job.
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
          data: row.payload,
          opts: {
            jobId: outboxJobId(row.id),
            delay: row.runAt ? Math.max(0, new Date(row.runAt).getTime() - Date.now()) : 0,
          },
        }))
        await within(5000, queues[name].addBulk(jobs))
      }
      const relayed = rows.filter((r) => !parked.includes(r.id)).map((r) => r.id)
      if (relayed.length > 0) {
        await trx.updateTable('outbox').set({ relayedAt: new Date() }).where('id', 'in', relayed).execute()
      }
      return rows.length
    })
  }

  function tick(): void {
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

  return {
    async add(trx, queue, name, payload, options: { runAt?: Date | null } = {}) {
      const row = await trx
        .insertInto('outbox')
        .values({ queue, jobName: name, payload: JSON.stringify(payload), runAt: options.runAt ?? null })
        .returning('id')
        .executeTakeFirstOrThrow()
      onCommit(trx, tick)
      return row.id
    },
    relayOnce,
    kick: tick,
    start(intervalMs) {
      if (!timer) timer = setInterval(tick, intervalMs)
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      await running
    },
  }
}
