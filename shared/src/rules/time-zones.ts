/**
 * How each use reads a moment in a zone: its locale and fields. `Intl.DateTimeFormat` is costly to make
 * (about 0.15 ms on a 2-core machine, the zone's rules loaded each time) and cheap to use (about
 * 0.02 ms): made once per zone and shape, and kept.
 */
const SHAPES = {
  /** Every field of the moment, 24-hour: the zone's offset from UTC at an instant. */
  moment: {
    locale: 'en-US',
    options: {
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    },
  },
  /** The calendar date, `YYYY-MM-DD` (en-CA writes it so). */
  date: { locale: 'en-CA', options: { year: 'numeric', month: '2-digit', day: '2-digit' } },
  /** The clock, 24-hour hours and minutes. */
  clock: { locale: 'en-GB', options: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } },
} as const satisfies Record<string, { locale: string; options: Intl.DateTimeFormatOptions }>

/**
 * Formats kept, by shape and zone as asked. Zones come from input, and Intl reads a zone's name
 * whatever its case (`america/new_york`): so many spellings of a zone are each kept once, the whole
 * is forgotten past this many.
 */
const KEPT_AT_MOST = 2000
const kept = new Map<string, Intl.DateTimeFormat>()

/** The format of `shape` in `timeZone`, made once; a RangeError for a zone Intl does not know. */
export function zoneFormat(timeZone: string, shape: keyof typeof SHAPES): Intl.DateTimeFormat {
  const key = `${shape} ${timeZone}`
  let format = kept.get(key)
  if (!format) {
    const { locale, options } = SHAPES[shape]
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone })
    if (kept.size >= KEPT_AT_MOST) kept.clear()
    kept.set(key, format)
  }
  return format
}

/** Whether Intl knows the IANA zone `zone`. */
export function isValidTimeZone(zone: string): boolean {
  try {
    zoneFormat(zone, 'date')
    return true
  } catch {
    return false
  }
}

/** The numeric fields of `instant` in `timeZone`, as `shape` reads them. */
export function zoneParts(
  timeZone: string,
  shape: keyof typeof SHAPES,
  instant: Date,
): Partial<Record<Intl.DateTimeFormatPartTypes, number>> {
  const out: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {}
  for (const part of zoneFormat(timeZone, shape).formatToParts(instant)) {
    if (part.type !== 'literal') out[part.type] = Number(part.value)
  }
  return out
}
