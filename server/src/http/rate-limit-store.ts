import { createRequire } from 'node:module'
import type { Redis } from 'ioredis'

// @fastify/rate-limit's in-process store (it ships no types for it), counting while Redis is away.
const require = createRequire(import.meta.url)
type Counted = { current: number; ttl: number }
type Callback = (err: Error | null, result?: Counted) => void
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void
  child(routeOptions: object): Store
}
type StoreClass<A extends unknown[]> = new (...args: A) => Store
const LocalStore: StoreClass<[boolean, boolean, number?]> = require('@fastify/rate-limit/store/LocalStore.js')

function leasing(redis: Redis): LeasingRedis {
  const r = redis as LeasingRedis
  if (!r.rateLimitLease) redis.defineCommand('rateLimitLease', { numberOfKeys: 1, lua: LEASE })
  return r
}

/** Counts taken from Redis at a time for a limit of `max`: one for a small limit, counted exactly. */
export function leaseSize(max: number): number {
  return Math.max(1, Math.min(16, Math.floor(max / 50)))
}

// Takes `size` counts of the key at once; a new key's window starts with it.
const LEASE = `
  local size = tonumber(ARGV[2])
  local current = redis.call('INCRBY', KEYS[1], size)
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then
    ttl = tonumber(ARGV[1])
    redis.call('PEXPIRE', KEYS[1], ttl)
  end
  return {current, ttl}
`

type LeasingRedis = Redis & {
  rateLimitLease(
    key: string,
    timeWindow: number,
    size: number,
    cb: (err: Error | null, r: number[]) => void,
  ): void
}

interface Lease {
  /** The next count to answer, and the last this process holds. */
  next: number
  last: number
  /** When the key's window ends (ms since the epoch). */
  endsAt: number
  /** Requests waiting for counts while Redis is asked. */
  waiting: Callback[]
  asking: boolean
}

/**
 * Counts in Redis, shared by every API process, a few at a time: a process takes `leaseSize(max)` counts
 * of a key in one round trip and answers that many requests from them, so most requests cost no round
 * trip. A count is never given twice, so no process lets more than the limit through; counts a process
 * holds unspent when the window ends were counted all the same, so across N processes a client may be
 * stopped up to (N - 1) × (lease - 1) requests early. Requests that arrive while Redis is asked wait for
 * the answer and take the next counts together (a burst costs one or two round trips, not one each).
 */
class LeasedRedisStore implements Store {
  private readonly leases = new Map<string, Lease>()
  private calls = 0

  constructor(
    private readonly redis: LeasingRedis,
    private readonly prefix: string,
  ) {}

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    const now = Date.now()
    if (++this.calls % 1000 === 0) this.forgetEnded(now)
    let lease = this.leases.get(key)
    if (!lease || (!lease.asking && lease.endsAt <= now)) {
      lease = { next: 1, last: 0, endsAt: 0, waiting: [], asking: false }
      this.leases.set(key, lease)
    }
    if (!lease.asking && lease.next <= lease.last) {
      cb(null, { current: lease.next++, ttl: lease.endsAt - now })
      return
    }
    lease.waiting.push(cb)
    if (!lease.asking) this.ask(key, lease, timeWindow, leaseSize(max))
  }

  private ask(key: string, lease: Lease, timeWindow: number, size: number): void {
    lease.asking = true
    const wanted = Math.max(size, lease.waiting.length)
    this.redis.rateLimitLease(this.prefix + key, timeWindow, wanted, (err, result) => {
      lease.asking = false
      const waiting = lease.waiting
      lease.waiting = []
      if (err || !result) {
        this.leases.delete(key)
        for (const cb of waiting) cb(err ?? new Error('no answer from the rate-limit store'))
        return
      }
      const [last = 0, ttl = timeWindow] = result
      lease.next = last - wanted + 1
      lease.last = last
      lease.endsAt = Date.now() + ttl
      let served = 0
      for (; served < waiting.length && lease.next <= lease.last; served++) {
        waiting[served]?.(null, { current: lease.next++, ttl })
      }
      if (served < waiting.length) {
        // Those that came while Redis was asked, beyond the counts taken: they ask again, together.
        lease.waiting = [...waiting.slice(served), ...lease.waiting]
        if (!lease.asking) this.ask(key, lease, timeWindow, size)
      }
    })
  }

  /** Leases whose window is over are dropped now and then, so the map holds only recent clients. */
  private forgetEnded(now: number): void {
    for (const [key, lease] of this.leases) if (!lease.asking && lease.endsAt <= now) this.leases.delete(key)
  }

  child(routeOptions: object): Store {
    const { routeInfo } = routeOptions as { routeInfo: { method: string; url: string } }
    return new LeasedRedisStore(this.redis, `${this.prefix}${routeInfo.method}${routeInfo.url}-`)
  }
}

/** A lease counts fixed windows: a window that grows while a client keeps asking is not offered. */
function fixedWindows(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }): void {
  if (options.continueExceeding || options.exponentialBackoff) {
    throw new Error('The rate-limit store counts fixed windows: no continueExceeding or exponentialBackoff')
  }
}

/**
 * The rate-limit store: counts in Redis a few at a time (`LeasedRedisStore`), and while Redis does not
 * answer, in this process — the limits hold (per process) instead of switching off. An attacker gains
 * nothing from taking Redis away.
 */
export function redisStoreWithFallback(redis: Redis, nameSpace: string) {
  return class FallbackStore implements Store {
    private readonly shared: Store
    private readonly local: Store

    constructor(
      params: { continueExceeding?: boolean; exponentialBackoff?: boolean },
      parts?: [Store, Store],
    ) {
      fixedWindows(params)
      this.shared = parts?.[0] ?? new LeasedRedisStore(leasing(redis), nameSpace)
      this.local = parts?.[1] ?? new LocalStore(false, false)
    }

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.shared.incr(
        key,
        (err, result) => (err ? this.local.incr(key, cb, timeWindow, max) : cb(null, result)),
        timeWindow,
        max,
      )
    }

    child(routeOptions: object): Store {
      fixedWindows(routeOptions)
      return new FallbackStore({}, [this.shared.child(routeOptions), this.local.child(routeOptions)])
    }
  }
}
