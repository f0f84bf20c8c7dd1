import { describe, expect, it } from 'vitest'
import { inQuietHours, wants } from './notify.ts'
import { retryAfterMs } from './send.ts'

const at = (iso: string) => new Date(iso)

describe('quiet hours', () => {
  const night = { events: null, quietStart: '22:00', quietEnd: '07:00', timeZone: 'America/New_York' }

  it("keep a window across midnight on the agent's own clock", () => {
    // 03:30 UTC is 22:30 in New York (EST): quiet; 12:00 UTC is 07:00 there: no longer quiet.
    expect(inQuietHours(night, at('2026-12-02T03:30:00Z'))).toBe(true)
    expect(inQuietHours(night, at('2026-12-02T11:59:00Z'))).toBe(true)
    expect(inQuietHours(night, at('2026-12-02T12:00:00Z'))).toBe(false)
    expect(inQuietHours(night, at('2026-12-02T20:00:00Z'))).toBe(false)
  })

  it('hold back every event but a won claim, and only the events the agent chose', () => {
    const quiet = at('2026-12-02T04:00:00Z')
    expect(wants(night, 'offer.team', quiet)).toBe(false)
    expect(wants(night, 'claim.won', quiet)).toBe(true)
    const day = at('2026-12-02T16:00:00Z')
    expect(wants(night, 'offer.team', day)).toBe(true)
    // By default an offer to everyone is not told.
    expect(wants(night, 'offer.everyone', day)).toBe(false)
    expect(wants({ ...night, events: ['offer.everyone'] }, 'offer.team', day)).toBe(false)
  })
})

describe('Retry-After', () => {
  it('reads seconds and an HTTP date', () => {
    const now = Date.parse('2026-12-02T10:00:00Z')
    expect(retryAfterMs('120', now)).toBe(120_000)
    expect(retryAfterMs('Wed, 02 Dec 2026 10:01:00 GMT', now)).toBe(60_000)
    expect(retryAfterMs(undefined, now)).toBeUndefined()
    expect(retryAfterMs('soon', now)).toBeUndefined()
  })
})
