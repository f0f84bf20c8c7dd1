import type { Redis } from 'ioredis'
import { RateLimitedError } from '../../errors.ts'

/** Wrong passwords one address may try on one account in an hour. */
export const SIGN_IN_FAILURES_PER_SOURCE = 10
/**
 * Wrong passwords on one account, from anywhere, in `SIGN_IN_ACCOUNT_WINDOW_SEC`: past them the account's
 * password door is paused for every address (decision 032), and only a mailed temporary password opens it.
 */
export const SIGN_IN_FAILURES_PER_ACCOUNT = 10
export const SIGN_IN_ACCOUNT_WINDOW_SEC = 15 * 60
/** Refused sign-ins on one account, from anywhere, that tell its owner by mail (once an hour). */
export const SIGN_IN_FAILURES_NOTICE = 20
/** Wrong queue-dashboard passwords one address may try in 15 minutes. */
export const DASHBOARD_FAILURES_PER_SOURCE = 10

/** Keys the in-process fallback holds at most: a flood of new keys evicts the oldest, never grows it. */
const LOCAL_KEYS_MAX = 50_000

interface Counted {
  n: number
  /** Milliseconds until the count's window ends (0 for no count). */
  ttlMs: number
}

/**
 * The same counts in this process, for while Redis does not answer: fixed windows, at most
 * LOCAL_KEYS_MAX keys. With several API processes each counts its own share, so an attacker gains at
 * most a factor of WEB_CONCURRENCY from taking Redis away — never "no limit".
 */
export class LocalCounts {
  private readonly counts = new Map<string, { n: number; endsAt: number }>()

  constructor(private readonly maxKeys = LOCAL_KEYS_MAX) {}

  incr(key: string, windowMs: number, now = Date.now()): Counted {
    let entry = this.counts.get(key)
    if (!entry || entry.endsAt <= now) {
      this.counts.delete(key)
      this.makeRoom(now)
      entry = { n: 0, endsAt: now + windowMs }
      this.counts.set(key, entry)
    }
    entry.n++
    return { n: entry.n, ttlMs: entry.endsAt - now }
  }

  get(key: string, now = Date.now()): Counted {
    const entry = this.counts.get(key)
    if (!entry || entry.endsAt <= now) return { n: 0, ttlMs: 0 }
    return { n: entry.n, ttlMs: entry.endsAt - now }
  }

  decr(key: string, now = Date.now()): void {
    const entry = this.counts.get(key)
    if (entry && entry.endsAt > now && entry.n > 0) entry.n--
  }

  get size(): number {
    return this.counts.size
  }

  private makeRoom(now: number): void {
    if (this.counts.size < this.maxKeys) return
    for (const [key, entry] of this.counts) if (entry.endsAt <= now) this.counts.delete(key)
    // Still full: the oldest windows go first (a Map iterates in insertion order).
    for (const key of this.counts.keys()) {
      if (this.counts.size < this.maxKeys) break
      this.counts.delete(key)
    }
  }
}

// One command each, not a MULTI: a MULTI whose connection closes rejects each of its queued commands
// as well as the MULTI, and nobody hears those (an unhandled rejection ends a Node process).
/** Takes one count of a window of ARGV[1] ms; answers the count and the window's time left. */
const COUNT = `local n = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`
/** The count of a window and its time left, without taking one. */
const CURRENT = `return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1])}`
// A count given back; a key whose window ended is not made again (it would have no expiry).
const GIVE_BACK = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0`

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))
const larger = (a: Counted, b: Counted) => (a.n >= b.n ? a : b)

/**
 * Per-account counters in Redis (per-address limits are @fastify/rate-limit's). While Redis does not
 * answer they count in this process (`LocalCounts`) and still hold; a count read after Redis returns is
 * the larger of the two, so a Redis restart wipes nothing an attacker could use.
 */
export function createAccountLimits(redis: Redis, prefix: string, local = new LocalCounts()) {
  const key = (kind: string, account: string) => `${prefix}:limit:${kind}:${account.toLowerCase()}`
  async function count(kind: string, account: string, windowSec: number): Promise<Counted> {
    const k = key(kind, account)
    try {
      const [n, ttl] = (await redis.eval(COUNT, 1, k, windowSec * 1000)) as [number, number]
      return larger({ n, ttlMs: Math.max(0, ttl) }, local.get(k))
    } catch {
      return local.incr(k, windowSec * 1000)
    }
  }

  async function current(kind: string, account: string): Promise<Counted> {
    const k = key(kind, account)
    const held = local.get(k)
    try {
      const [n, ttl] = (await redis.eval(CURRENT, 1, k)) as [number, number]
      return larger({ n, ttlMs: Math.max(0, ttl) }, held)
    } catch {
      return held
    }
  }

  async function giveBack(kind: string, account: string): Promise<void> {
    const k = key(kind, account)
    local.decr(k)
    try {
      await redis.eval(GIVE_BACK, 1, k)
    } catch {
      // Redis away: the count it holds, if any, ends with its window.
    }
  }

  /** Seconds until `counted` is under `max` again; 0 when it already is. */
  const refusedFor = (counted: Counted, max: number) => (counted.n >= max ? seconds(counted.ttlMs) : 0)

  return {
    /** Takes one of `max` uses per hour, or answers 429 with Retry-After. */
    async take(kind: 'reset' | 'resend' | 'email-change', account: string, max = 5): Promise<void> {
      const counted = await count(kind, account, 3600)
      if (counted.n > max) throw new RateLimitedError(undefined, seconds(counted.ttlMs))
    },

    /**
     * Takes one password try on `account` from `source` before the password is checked, so tries that
     * arrive at once are counted at once; answers the seconds until tries open again, or 0 when this one
     * may go on. Tries run out after SIGN_IN_FAILURES_PER_ACCOUNT in the account's window from anywhere,
     * or SIGN_IN_FAILURES_PER_SOURCE in an hour from this source; a right password gives its try back
     * (`giveBackSignInTry`). Emails nobody has are counted alike.
     */
    async takeSignInTry(account: string, source: string): Promise<number> {
      const [any, here] = await Promise.all([
        count('signin-cap', account, SIGN_IN_ACCOUNT_WINDOW_SEC),
        count('signin-fail', `${account}|${source}`, 3600),
      ])
      return Math.max(
        refusedFor({ ...any, n: any.n - 1 }, SIGN_IN_FAILURES_PER_ACCOUNT),
        refusedFor({ ...here, n: here.n - 1 }, SIGN_IN_FAILURES_PER_SOURCE),
      )
    },

    async giveBackSignInTry(account: string, source: string): Promise<void> {
      await Promise.all([giveBack('signin-cap', account), giveBack('signin-fail', `${account}|${source}`)])
    },

    /** Counts a refused sign-in; true exactly when the account's refusals in an hour reach the notice mark. */
    async signInRefused(account: string): Promise<boolean> {
      return (await count('signin-fail-any', account, 3600)).n === SIGN_IN_FAILURES_NOTICE
    },

    /** Seconds until `source` may try a dashboard password again; 0 while it may. */
    async dashboardPausedFor(source: string): Promise<number> {
      return refusedFor(await current('dashboard-fail', source), DASHBOARD_FAILURES_PER_SOURCE)
    },

    async dashboardFailed(source: string): Promise<void> {
      await count('dashboard-fail', source, 15 * 60)
    },
  }
}

export type AccountLimits = ReturnType<typeof createAccountLimits>
