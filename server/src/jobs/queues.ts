import { type JobName, type JobPayload, type QueueName, queueNames } from '@porchlight/shared'
import { type JobsOptions, Queue } from 'bullmq'
import type { Redis } from 'ioredis'

export const defaultJobOptions: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
  // Completed jobs stay a week for the queue dashboard; their outbox rows are done and never relayed again.
  removeOnComplete: { age: 7 * 24 * 3600, count: 50_000 },
  // Failed jobs stay for an operator to inspect and retry.
  removeOnFail: false,
}

export type Queues = { [Q in QueueName]: Queue }

export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}:bull`
}

export function createQueues(connection: Redis, redisPrefix: string): Queues {
  const entries = queueNames.map((name) => {
    const queue = new Queue(name, { connection, prefix: bullPrefix(redisPrefix), defaultJobOptions })
    // Redis being away is reported by /api/ready and retried by the relay; it is not a crash.
    queue.on('error', () => {})
    return [name, queue]
  })
  return Object.fromEntries(entries) as Queues
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()))
}

export interface OutboxJob<Q extends QueueName = QueueName, N extends JobName<Q> = JobName<Q>> {
  queue: Q
  name: N
  payload: JobPayload<Q, N>
}
