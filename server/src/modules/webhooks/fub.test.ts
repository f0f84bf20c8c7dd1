import { describe, expect, it } from 'vitest'
import { captureTime } from './fub.ts'
import { classify, retryAfterMs } from './fub-api.ts'

describe("Follow Up Boss's answers", () => {
  it('takes 401 and 403 as the key refused, 429 as wait, 5xx as down, 204 as ignored', () => {
    expect([200, 201, 204, 401, 403, 429, 500, 503, 408, 400, 422].map(classify)).toEqual([
      'delivered',
      'delivered',
      'ignored',
      'rejected',
      'rejected',
      'throttled',
      'unavailable',
      'unavailable',
      'unavailable',
      'refused',
      'refused',
    ])
  })

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-29T15:00:00Z')
    expect(retryAfterMs('120', now)).toBe(120_000)
    expect(retryAfterMs('Sun, 29 Nov 2026 15:00:30 GMT', now)).toBe(30_000)
    expect(retryAfterMs('Sun, 29 Nov 2026 14:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs('soon', now)).toBeNull()
    expect(retryAfterMs(null, now)).toBeNull()
  })
})

describe('the time a sign-in happened', () => {
  const now = new Date('2026-11-29T15:00:00Z')

  it('is the time the phone kept it offline, when believable', () => {
    expect(captureTime('2026-11-29T13:12:00.000Z', now).toISOString()).toBe('2026-11-29T13:12:00.000Z')
  })

  it('is now for a time in the future, weeks old, or unreadable', () => {
    for (const said of ['2026-11-29T16:00:00Z', '2026-10-01T10:00:00Z', 'yesterday', null]) {
      expect(captureTime(said, now).toISOString()).toBe(now.toISOString())
    }
  })
})
