import { expect } from 'vitest'
import type { guestFields } from './factories.ts'

/** A guest's sign-in as sent, and what came back (or that nothing did). */
export interface Attempt {
  body: ReturnType<typeof guestFields>
  status: number | 'no answer'
  retryAfter: string | null
  answer: unknown
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Ticked "email me": each sign-in owes the guest a mail. */
export const consent = { emailConsent: true, consentText: 'Email me about homes like this one.' }

/** A guest's sign-in at the door of the API at `origin`; answers what came back, or that nothing did. */
export async function signInAt(origin: string, body: ReturnType<typeof guestFields>): Promise<Attempt> {
  try {
    const res = await fetch(`${origin}/api/public/saveProspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    })
    const text = await res.text()
    return { body, status: res.status, retryAfter: res.headers.get('retry-after'), answer: text }
  } catch (err) {
    return { body, status: 'no answer', retryAfter: null, answer: String(err) }
  }
}

/**
 * Guests at `doors` doors at once, each signing in one after another until `stop` is called; `stop`
 * resolves every attempt once the last ones are answered.
 */
export function guestsSigningIn(origin: string, doors: number, fields: () => ReturnType<typeof guestFields>) {
  const attempts: Attempt[] = []
  let going = true
  const running = Array.from({ length: doors }, async () => {
    while (going) attempts.push(await signInAt(origin, fields()))
  })
  return {
    attempts,
    stop: async () => {
      going = false
      await Promise.all(running)
      return attempts
    },
  }
}

/** A sign-in refused during an outage: 503 in the contract's error shape, with when to ask again. */
export function expectRefusedToRetry(a: Attempt): void {
  expect({ status: a.status, answer: a.answer }).toMatchObject({ status: 503 })
  expect(JSON.parse(String(a.answer))).toEqual({
    error: { code: 'UNAVAILABLE', message: expect.any(String) },
  })
  expect(Number(a.retryAfter)).toBeGreaterThan(0)
}

/**
 * Each of `emails` got exactly one of each delivery `counted` counts (mail, webhook post, …): all arrive
 * within a minute, and a moment later still none arrived twice.
 */
export async function expectEachDeliveredOnce(
  emails: string[],
  counted: Record<string, (email: string) => number>,
): Promise<void> {
  const tally = (email: string) =>
    Object.fromEntries(Object.entries(counted).map(([what, count]) => [what, count(email)]))
  const missing = () =>
    emails
      .map((email) => ({ email, counts: tally(email) }))
      .filter(({ counts }) => Object.values(counts).some((n) => n === 0))
      .map(({ email, counts }) => ({ email, ...counts }))
  await expect.poll(missing, { timeout: 60_000, interval: 500 }).toEqual([])
  await pause(3000)
  const once = Object.fromEntries(Object.keys(counted).map((what) => [what, 1]))
  for (const email of emails) expect({ email, ...tally(email) }).toEqual({ email, ...once })
}
