import { sql } from 'kysely'
import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import { inTransaction, type Trx } from '../db/transaction.ts'
import { backgroundFailures } from '../failures.ts'
import type { Outbox } from '../jobs/outbox.ts'
import type { Mailer } from './mailer.ts'
import { MAILS_PER_JOB } from './queue-mail.ts'

/** Due mails handed back per statement: a night's waiting mail goes out in a few statements. */
const SWEEP_BATCH = 500
/**
 * A mail queued this long ago and still not claimed, or whose sender's lease ended this long ago, lost
 * its job: a PostgreSQL outage longer than a job's retries failed the job while its mails waited
 * ('queued') or were being sent ('sending'). Far past a busy queue's delay and a lease; a second job for
 * a mail that was only slow is harmless, as a claim takes each mail once.
 */
export const STRANDED_AFTER_MS = 10 * 60_000

export interface MailRetries {
  /** Hands due waiting mail back to the queue (status 'queued', send jobs in the outbox); answers how many. */
  sweepOnce(): Promise<number>
  /**
   * While mail waits for the server: checks whether it answers, and when it does after not answering
   * (or for the first time since this process started), makes all that mail due at once.
   */
  probeOnce(): Promise<'idle' | 'up' | 'down'>
  start(): void
  stop(): Promise<void>
}

/**
 * Mail the SMTP server could not take waits in PostgreSQL (decision 031). A mail waiting on the schedule
 * goes when its time comes. A mail waiting for a server that did not answer goes as soon as the probe
 * finds the server answering again; until then the sweep leaves it alone, so a server that is down is
 * asked once per probe interval, not once per mail. The mail goes through the outbox again, with the
 * same row, claims and lease as its first attempt: nothing is sent twice.
 */
export function createMailRetries(d: {
  db: Db
  outbox: Pick<Outbox, 'addEach'>
  mailer: Pick<Mailer, 'probe'>
  config: Config['mailRetry']
}): MailRetries {
  const { db } = d
  /** What this process's last probe found: unknown until it has probed. */
  let server: 'unknown' | 'up' | 'down' = 'unknown'
  let timers: NodeJS.Timeout[] = []
  let sweeping: Promise<unknown> | undefined
  let probing: Promise<unknown> | undefined
  let failing = false
  let stopped = false

  /** Send jobs for mails just queued again, MAILS_PER_JOB to a job, in the transaction that queued them. */
  async function handBack(trx: Trx, rows: Array<{ id: number }>) {
    const ids = rows.map((r) => r.id).sort((a, b) => a - b)
    const jobs: Array<{ mailIds: number[] }> = []
    for (let i = 0; i < ids.length; i += MAILS_PER_JOB)
      jobs.push({ mailIds: ids.slice(i, i + MAILS_PER_JOB) })
    await d.outbox.addEach(trx, 'mail', 'send', jobs)
    return ids.length
  }

  async function sweepBatch(): Promise<number> {
    const skipServer = server === 'down'
    return inTransaction(db, async (trx) => {
      const rows = await trx
        .updateTable('mail')
        // Its next attempt is now: 'queued since', so a mail that waited hours is not taken for stranded.
        .set({ status: 'queued', nextAttemptAt: sql<Date>`now()`, waitingFor: null })
        .where('id', 'in', (eb) => {
          let due = eb
            .selectFrom('mail')
            .select('id')
            .where('status', '=', 'waiting')
            .where('nextAttemptAt', '<=', sql<Date>`now()`)
          if (skipServer) due = due.where('waitingFor', '<>', 'server')
          return due.orderBy('nextAttemptAt').limit(SWEEP_BATCH).forUpdate().skipLocked()
        })
        .where('status', '=', 'waiting')
        .returning('id')
        .execute()
      return handBack(trx, rows)
    })
  }

  /** Gives mail whose job was lost (STRANDED_AFTER_MS) a send job again; answers how many. */
  async function rescueBatch(): Promise<number> {
    const strandedSince = sql<Date>`now() - ${`${STRANDED_AFTER_MS} milliseconds`}::interval`
    return inTransaction(db, async (trx) => {
      const rows = await trx
        .updateTable('mail')
        // Mail an API process older than decision 053 wrote without a job ('job') gets its job here too.
        .set({ status: 'queued', leaseUntil: null, nextAttemptAt: sql<Date>`now()`, waitingFor: null })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('mail')
            .select('id')
            .where((w) =>
              w.or([
                w.and([
                  w('status', '=', 'queued'),
                  w(sql`coalesce(next_attempt_at, created_at)`, '<', strandedSince),
                ]),
                w.and([w('status', '=', 'sending'), w('leaseUntil', '<', strandedSince)]),
              ]),
            )
            .orderBy('id')
            .limit(SWEEP_BATCH)
            .forUpdate()
            .skipLocked(),
        )
        .where('status', 'in', ['queued', 'sending'])
        .returning('id')
        .execute()
      return handBack(trx, rows)
    })
  }

  async function sweepOnce(): Promise<number> {
    let total = 0
    for (const batch of [sweepBatch, rescueBatch]) {
      for (;;) {
        const moved = await batch()
        total += moved
        if (moved < SWEEP_BATCH) break
      }
    }
    return total
  }

  async function probeOnce(): Promise<'idle' | 'up' | 'down'> {
    const waiting = await db
      .selectFrom('mail')
      .select('id')
      .where('status', '=', 'waiting')
      .where('waitingFor', '=', 'server')
      .limit(1)
      .executeTakeFirst()
    if (!waiting) return 'idle'
    try {
      await d.mailer.probe()
    } catch (err) {
      // Told once when the outage starts, not every probe while it lasts.
      if (server !== 'down') backgroundFailures.report('mail-server', err)
      server = 'down'
      return 'down'
    }
    // A probe that answered after the worker began to stop releases nothing: the database may be closing.
    if (stopped) return 'idle'
    const was = server
    server = 'up'
    // Only on the way back up: a server that answers the probe but still fails sends gets its mail on
    // the schedule, not every probe.
    if (was !== 'up') {
      await db
        .updateTable('mail')
        .set({ nextAttemptAt: sql<Date>`now()` })
        .where('status', '=', 'waiting')
        .where('waitingFor', '=', 'server')
        .where('nextAttemptAt', '>', sql<Date>`now()`)
        .execute()
      await sweepOnce()
    }
    return 'up'
  }

  /** One run at a time of each; PostgreSQL away is reported once, and the next tick tries again. */
  function tick(kind: 'sweep' | 'probe') {
    if (kind === 'sweep' ? sweeping : probing) return
    const run = (kind === 'sweep' ? sweepOnce() : probeOnce())
      .then(() => {
        failing = false
      })
      .catch((err) => {
        if (!failing) backgroundFailures.report('mail-retry', err)
        failing = true
      })
      .finally(() => {
        if (kind === 'sweep') sweeping = undefined
        else probing = undefined
      })
    if (kind === 'sweep') sweeping = run
    else probing = run
  }

  return {
    sweepOnce,
    probeOnce,
    start() {
      if (timers.length > 0) return
      stopped = false
      timers = [
        setInterval(() => tick('sweep'), d.config.sweepIntervalMs),
        setInterval(() => tick('probe'), d.config.probeIntervalMs),
      ]
      tick('probe')
    },
    /** Waits for a sweep in flight, not for a probe: a silent server could hold a shutdown for seconds. */
    async stop() {
      stopped = true
      for (const timer of timers) clearInterval(timer)
      timers = []
      await sweeping
    },
  }
}

/** Mail the server could not take yet: how many, and how long ago the oldest was written. */
export async function mailWaiting(db: Db): Promise<{ waiting: number; oldestWaitingSeconds: number | null }> {
  const row = await db
    .selectFrom('mail')
    .select([
      sql<string>`count(*)`.as('waiting'),
      sql<number | null>`floor(extract(epoch from now() - min(created_at)))::int`.as('oldest'),
    ])
    .where('status', '=', 'waiting')
    .executeTakeFirstOrThrow()
  return { waiting: Number(row.waiting), oldestWaitingSeconds: row.oldest }
}
