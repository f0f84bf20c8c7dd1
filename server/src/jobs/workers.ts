import { type JobName, type JobPayload, jobNames, type QueueName, queueNames } from '@porchlight/shared'
import { type Job, UnrecoverableError, Worker } from 'bullmq'
import type { Redis } from 'ioredis'
import { whileDatabaseAway } from '../db/while-away.ts'
import { backgroundFailures } from '../failures.ts'
import type { Outbox } from './outbox.ts'
import { bullPrefix } from './queues.ts'

export type Processors = {
  [Q in QueueName]: { [N in JobName<Q>]: (payload: JobPayload<Q, N>, job: Job) => Promise<unknown> }
}

/** Every job name must have exactly one processor, and no processor may name an unknown job. */
export function checkProcessors(processors: Processors): void {
  for (const queue of queueNames) {
    const declared = [...jobNames[queue]].sort()
    const handled = Object.keys(processors[queue] ?? {}).sort()
    if (declared.join() !== handled.join()) {
      throw new Error(`queue ${queue}: jobs [${declared}] but processors for [${handled}]`)
    }
  }
}

export interface WorkerOptions {
  connection: Redis
  redisPrefix: string
  /** Told when a job's effect happened, or when BullMQ gave up on it, so the row is not relayed again. */
  outbox: Pick<Outbox, 'markDone' | 'markFailed'>
  /** Jobs a queue's worker runs at once: 8 unless told otherwise. */
  concurrency?: Partial<Record<QueueName, number>>
}

export function startWorkers(processors: Processors, opts: WorkerOptions): { close(): Promise<void> } {
  checkProcessors(processors)
  const workers = queueNames.map((queue) => {
    const handlers = processors[queue] as Record<string, (payload: unknown, job: Job) => Promise<unknown>>
    const worker = new Worker(
      queue,
      async (job) => {
        const handler = handlers[job.name]
        if (!handler) throw new Error(`no processor for ${queue}/${job.name}`)
        const result = await handler(job.data, job)
        // Marked before BullMQ counts the job complete: a worker dying in between runs the job again,
        // which every processor takes as a no-op, rather than leaving a row that is never done.
        // The effect happened: a database away for a moment must not have it happen again.
        await whileDatabaseAway(() => opts.outbox.markDone(job.id))
        return result
      },
      {
        connection: opts.connection,
        prefix: bullPrefix(opts.redisPrefix),
        concurrency: opts.concurrency?.[queue] ?? 8,
        // Jobs here take milliseconds to seconds: a worker that died is noticed within about 15 s,
        // not BullMQ's default of a minute.
        lockDuration: 10_000,
        stalledInterval: 5_000,
      },
    )
    worker.on('failed', (job, err) => {
      backgroundFailures.report('job', err, {
        queue,
        job: job?.id,
        name: job?.name,
        attempts: job?.attemptsMade,
      })
      // After its last attempt, or a failure a retry cannot mend (a mail refused for good).
      const final = err instanceof UnrecoverableError
      if (job && (final || job.attemptsMade >= (job.opts.attempts ?? 1))) {
        opts.outbox
          .markFailed(job.id, String(err))
          .catch((failure) => backgroundFailures.report('job', failure, { queue, job: job.id }))
      }
    })
    worker.on('error', (err) => backgroundFailures.report('worker', err, { queue }))
    return worker
  })
  return {
    async close() {
      await Promise.all(workers.map((w) => w.close()))
    },
  }
}
