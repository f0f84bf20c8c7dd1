import { type Command, Redis, type RedisOptions } from 'ioredis'

/**
 * A client for a library that sends commands nobody awaits (the socket.io adapter publishes and
 * unsubscribes without looking at the answer, and ioredis subscribes again by itself after a
 * reconnect): such a command still waiting when the process closes the client (Redis hung or coming
 * back) is dropped with the connection, instead of being left rejected with nobody to hear it, which
 * ends a Node process. A caller that awaits a command still gets its failure.
 */
class UnawaitedRedis extends Redis {
  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    command.promise.catch(() => {})
    return super.sendCommand(command, stream)
  }
}

/**
 * 'command': fails fast while Redis is away (readiness checks, rate limits, producers).
 * 'durable': queues commands until Redis returns (socket fan-out, subscriptions, BullMQ workers).
 * `unawaited`: the client is a library's that does not await its commands (see UnawaitedRedis).
 */
export function createRedis(
  url: string,
  mode: 'command' | 'durable',
  opts: { lazy?: boolean; unawaited?: boolean } = {},
): Redis {
  const options: RedisOptions =
    mode === 'command'
      ? { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 }
      : { maxRetriesPerRequest: null, enableOfflineQueue: true }
  const redis = new (opts.unawaited ? UnawaitedRedis : Redis)(url, {
    ...options,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: opts.lazy ?? false,
  })
  // Connection errors are reported by /api/ready and retried by ioredis; they must not crash us.
  redis.on('error', () => {})
  return redis
}

/** Resolves when the client is ready, or after `ms` if Redis does not answer. */
export function whenReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady)
      resolve(false)
    }, ms)
    const onReady = () => {
      clearTimeout(timer)
      resolve(true)
    }
    redis.once('ready', onReady)
  })
}

export async function pingRedis(url: string, ms = 1000): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: ms,
    retryStrategy: () => null,
  })
  probe.on('error', () => {})
  try {
    await probe.connect()
    return (await probe.ping()) === 'PONG'
  } catch {
    return false
  } finally {
    probe.disconnect()
  }
}

/**
 * Whether a Redis command failed because Redis is away (a 'command' client fails fast: its offline
 * queue is off and it retries once), not because of the command.
 */
export function isRedisUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false
  const { name, message } = err as { name?: unknown; message?: unknown }
  if (name === 'MaxRetriesPerRequestError') return true
  return (
    typeof message === 'string' &&
    (message.startsWith("Stream isn't writeable") ||
      message === 'Connection is closed.' ||
      message === 'Redis is not answering')
  )
}
