import type { Redis } from 'ioredis'
import { RateLimitedError } from '../../errors.ts'

/** Wrong passwords one address may try on one account in an hour; the owner, elsewhere, is never locked out. */
export const SIGN_IN_FAILURES_PER_SOURCE = 10
/** Wrong passwords on one account, from anywhere, that tell its owner by mail (once an hour). */
export const SIGN_IN_FAILURES_NOTICE = 20

/**
 * Per-account counters in Redis (per-IP limits are @fastify/rate-limit's). With Redis away these
 * counters open; the per-address limiter falls back to this process and still holds.
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
    async take(kind: 'reset' | 'resend' | 'email-change', account: string, max = 5): Promise<void> {
      if ((await count(kind, account, 3600)) > max) throw new RateLimitedError()
    },
    /**
     * Sign-in failures count per account and source address: a source that guessed wrong
     * SIGN_IN_FAILURES_PER_SOURCE times in an hour is refused on that account, while the owner signing
     * in from anywhere else is not (a lockout would let anyone lock anyone out).
     */
    async assertSignInAllowed(account: string, source: string): Promise<void> {
      if ((await current('signin-fail', `${account}|${source}`)) >= SIGN_IN_FAILURES_PER_SOURCE)
        throw new RateLimitedError()
    },
    /** Counts a failure; true exactly when the account's failures from anywhere reach the notice mark. */
    async signInFailed(account: string, source: string): Promise<boolean> {
      await count('signin-fail', `${account}|${source}`, 3600)
      return (await count('signin-fail-any', account, 3600)) === SIGN_IN_FAILURES_NOTICE
    },
  }
}

export type AccountLimits = ReturnType<typeof createAccountLimits>
