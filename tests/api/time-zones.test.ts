// A moment read in an agent's or an open house's zone: the formats are made once per zone and kept
// (shared/src/rules/time-zones.ts). Whatever zones are asked in whatever order, each answer is what a
// format made for that zone alone answers, and an open house's slot is the instant its zone names.
import { slotInstant } from '@porchlight/server/src/modules/open-houses/time.ts'
import { isValidTimeZone, TIME_SLOTS, todayIn, zoneParts } from '@porchlight/shared'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

const ZONES = Intl.supportedValuesOf('timeZone')
const zone = fc.constantFrom(...ZONES)
const instant = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2040-12-31T23:59:59Z'),
  noInvalidDate: true,
})

/** The fields of `at` in `timeZone`, from a format made for this one call. */
function fresh(timeZone: string, at: Date) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at)
  return Object.fromEntries(parts.filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]))
}

describe('moments in a zone', () => {
  it('read the same from a kept format as from one made for the call, zones taken in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(zone, instant), { minLength: 1, maxLength: 20 }), (asks) => {
        for (const [timeZone, at] of asks) {
          expect(zoneParts(timeZone, 'moment', at), `${timeZone} ${at.toISOString()}`).toEqual(
            fresh(timeZone, at),
          )
          expect(todayIn(timeZone, at)).toBe(
            `${fresh(timeZone, at).year}-${String(fresh(timeZone, at).month).padStart(2, '0')}-${String(fresh(timeZone, at).day).padStart(2, '0')}`,
          )
        }
      }),
      { numRuns: 200 },
    )
  })

  it('puts a daytime slot at the instant its zone names, across daylight-saving changes and odd offsets', () => {
    const daytime = TIME_SLOTS.slice(TIME_SLOTS.indexOf('9:00 AM'), TIME_SLOTS.indexOf('8:00 PM') + 1)
    const day = fc.date({
      min: new Date('2026-01-01T00:00:00Z'),
      max: new Date('2032-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    fc.assert(
      fc.property(zone, day, fc.constantFrom(...daytime), (timeZone, date, slot) => {
        const iso = date.toISOString().slice(0, 10)
        const at = slotInstant(iso, slot, timeZone)
        const local = fresh(timeZone, at as Date)
        const [, h, m, half] = /^(\d+):(\d\d) (AM|PM)$/.exec(slot) ?? []
        const hour = (Number(h) % 12) + (half === 'PM' ? 12 : 0)
        expect(
          [local.year, local.month, local.day, local.hour, local.minute],
          `${timeZone} ${iso} ${slot}`,
        ).toEqual([
          Number(iso.slice(0, 4)),
          Number(iso.slice(5, 7)),
          Number(iso.slice(8, 10)),
          hour,
          Number(m),
        ])
      }),
      { numRuns: 300 },
    )
    // The days a clock jumps, where one pass would be an hour off: New York's spring and fall of 2027,
    // Lord Howe's half-hour change, Kathmandu's quarter hour.
    expect(slotInstant('2027-03-14', '1:30 PM', 'America/New_York')?.toISOString()).toBe(
      '2027-03-14T17:30:00.000Z',
    )
    expect(slotInstant('2027-11-07', '1:30 PM', 'America/New_York')?.toISOString()).toBe(
      '2027-11-07T18:30:00.000Z',
    )
    expect(slotInstant('2027-04-04', '10:00 AM', 'Australia/Lord_Howe')?.toISOString()).toBe(
      '2027-04-03T23:30:00.000Z',
    )
    expect(slotInstant('2027-06-01', '10:00 AM', 'Asia/Kathmandu')?.toISOString()).toBe(
      '2027-06-01T04:15:00.000Z',
    )
  })

  it('knows the zones Intl knows, in any case, and no other name', () => {
    for (const name of ['America/New_York', 'america/new_york', 'UTC', 'Asia/Ho_Chi_Minh', 'US/Eastern']) {
      expect(isValidTimeZone(name), name).toBe(true)
    }
    for (const name of ['', 'Mars/Olympus_Mons', 'America/New_York\u0000', 'Europe/Lviv; drop table']) {
      expect(isValidTimeZone(name), name).toBe(false)
    }
    // 2,500 spellings of one zone (more than are kept at once): each answered right, the kept ones
    // forgotten once there are too many.
    const letters = 'americanewyork'
    for (let i = 0; i < 2500; i++) {
      const spelled = [...letters].map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c)).join('')
      expect(isValidTimeZone(`${spelled.slice(0, 7)}/${spelled.slice(7, 10)}_${spelled.slice(10)}`)).toBe(
        true,
      )
    }
    expect(zoneParts('america/NEW_york', 'moment', new Date('2027-01-01T12:00:00Z')).hour).toBe(7)
  })
})
