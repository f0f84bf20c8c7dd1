import { createRequire } from 'node:module'
import type { Redis } from 'ioredis'

// @fastify/rate-limit's own stores (it ships no types for them): Redis, shared by every API process,
// and an in-process LRU.
const require = createRequire(import.meta.url)
type Counted = { current: number; ttl: number }
type Callback = (err: Error | null, result?: Counted) => void
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void
  child(routeOptions: object): Store
}
type StoreClass<A extends unknown[]> = new (...args: A) => Store
const RedisStore: StoreClass<
  [boolean, boolean, Redis, string]
> = require('@fastify/rate-limit/store/RedisStore.js')
const LocalStore: StoreClass<[boolean, boolean, number?]> = require('@fastify/rate-limit/store/LocalStore.js')

/**
 * The rate-limit store: counts in Redis, and while Redis does not answer, in this process — the limits
 * hold (per process) instead of switching off. An attacker gains nothing from taking Redis away.
 */
export function redisStoreWithFallback(redis: Redis, nameSpace: string) {
  return class FallbackStore implements Store {
    private readonly shared: Store
    private readonly local: Store

    constructor(
      params: { continueExceeding?: boolean; exponentialBackoff?: boolean },
      parts?: [Store, Store],
    ) {
      const continueExceeding = params.continueExceeding ?? false
      const exponentialBackoff = params.exponentialBackoff ?? false
      this.shared = parts?.[0] ?? new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace)
      this.local = parts?.[1] ?? new LocalStore(continueExceeding, exponentialBackoff)
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
      return new FallbackStore({}, [this.shared.child(routeOptions), this.local.child(routeOptions)])
    }
  }
}
