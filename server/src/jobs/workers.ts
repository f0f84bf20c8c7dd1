import { type JobName, type JobPayload, jobNames, type QueueName, queueNames } from '@porchlight/shared'
import { type Job, UnrecoverableError, Worker } from 'bullmq'
import type { Redis } from 'ioredis'
import { whileDatabaseAway } from '../db/while-away.ts'
import { backgroundFailures } from '../failures.ts'
import { childTraceparent, readRequestId, readTraceparent, type TraceContext, trace } from '../lib/trace.ts'
import { type Outbox, TRACE_KEY } from './outbox.ts'
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

/** A job's payload without its trace, and the trace its run continues (decision 047). */
export function untrace(data: unknown): {
  payload: unknown
  context: TraceContext | undefined
  /** The traceparent the job was written under: its span's parent (decision 052). */
  parent?: string
} {
  if (typeof data !== 'object' || data === null || !(TRACE_KEY in data)) {
    return { payload: data, context: undefined }
  }
  const { [TRACE_KEY]: carried, ...payload } = data as Record<string, unknown>
  const given = (carried ?? {}) as Record<string, unknown>
  const requestId = readRequestId(given.requestId)
  if (!requestId) return { payload, context: undefined }
  const parent = readTraceparent(given.traceparent)
  const traceparent = childTraceparent(parent)
  return {
    payload,
    context: traceparent ? { requestId, traceparent } : { requestId },
    ...(parent ? { parent } : {}),
  }
}

export interface WorkerOptions {
  connection: Redis
  redisPrefix: string
  /** Told when a job's effect happened, or when BullMQ gave up on it, so the row is not relayed again. */
  outbox: Pick<Outbox, 'markDone' | 'markFailed'>
  /** Jobs a queue's worker runs at once: 8 unless told otherwise. */
  concurrency?: Partial<Record<QueueName, number>>
  /** Told of each job run (debug): its lines carry the request id of the request that caused it. */
  logger?: { debug(fields: object, message: string): void }
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
        const { payload, context, parent } = untrace(job.data)
        const run = async () => {
          const started = performance.now()
          opts.logger?.debug(
            { queue, job: job.id, name: job.name, attempt: job.attemptsMade + 1 },
            'job started',
          )
          const result = await handler(payload, job)
          // Marked before BullMQ counts the job complete: a worker dying in between runs the job again,
          // which every processor takes as a no-op, rather than leaving a row that is never done.
          // The effect happened: a database away for a moment must not have it happen again.
          await whileDatabaseAway(() => opts.outbox.markDone(job.id))
          opts.logger?.debug(
            { queue, job: job.id, name: job.name, ms: Math.round(performance.now() - started) },
            'job done',
          )
          return result
        }
        // Jobs it writes to the outbox, and every log line meanwhile, carry the request's id; with
        // OpenTelemetry, the job is a span in the request's trace and its rows carry that span.
        return trace.inSpan(`${queue} ${job.name}`, parent, (traceparent) => {
          if (!context) return run()
          return trace.run(traceparent ? { ...context, traceparent } : context, run)
        })
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
        requestId: untrace(job?.data).context?.requestId,
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
