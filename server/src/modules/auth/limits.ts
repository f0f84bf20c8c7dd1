import type { Redis } from 'ioredis'
import { RateLimitedError } from '../../errors.ts'

/**
 * Per-account counters in Redis (per-IP limits are @fastify/rate-limit's). With Redis away the
 * limits open rather than lock everyone out, like the per-IP limiter.
 */
export function createAccountLimits(redis: Redis, prefix: string) {
  const key = (kind: string, account: string) => `${prefix}:limit:${kind}:${account.toLowerCase()}`

  async function count(kind: string, account: string, windowSec: number): Promise<number> {
    try {
      const k = key(kind, account)
      const [[, n]] = (await redis.multi().incr(k).expire(k, windowSec, 'NX').exec()) as [[unknown, number]]
      return n
    } catch {
      return 0
    }
  }

  async function current(kind: string, account: string): Promise<number> {
    try {
      return Number((await redis.get(key(kind, account))) ?? 0)
    } catch {
      return 0
    }
  }

  return {
    /** Takes one of `max` uses per hour, or answers 429. */
    async take(kind: 'reset' | 'resend', account: string, max = 5): Promise<void> {
      if ((await count(kind, account, 3600)) > max) throw new RateLimitedError()
    },
    /** Sign-in failures: at most `max` an hour per account. */
    async assertSignInAllowed(account: string, max = 100): Promise<void> {
      if ((await current('signin-fail', account)) >= max) throw new RateLimitedError()
    },
    async signInFailed(account: string): Promise<void> {
      await count('signin-fail', account, 3600)
    },
  }
}

export type AccountLimits = ReturnType<typeof createAccountLimits>
