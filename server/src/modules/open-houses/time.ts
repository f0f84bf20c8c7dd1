import { TIME_SLOTS, zoneParts } from '@porchlight/shared'

/** The offset of `timeZone` from UTC at `instant`, in milliseconds. */
function offsetMs(timeZone: string, instant: Date): number {
  const { year = NaN, month = NaN, day, hour, minute, second } = zoneParts(timeZone, 'moment', instant)
  return Date.UTC(year, month - 1, day, hour, minute, second) - instant.getTime()
}

/** The instant a calendar date and slot label name in a zone; null for a flexible date or time. */
export function slotInstant(date: string | null, slot: string, timeZone: string): Date | null {
  // TIME_SLOTS runs in 15-minute steps from midnight: '1:30 PM' is slot 54, minute 810 of the day.
  const quarter = (TIME_SLOTS as readonly string[]).indexOf(slot)
  if (!date || quarter < 0) return null
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const naive = Date.UTC(y, m - 1, d, 0, quarter * 15)
  // Two passes settle the offset across a daylight-saving change.
  let instant = naive - offsetMs(timeZone, new Date(naive))
  instant = naive - offsetMs(timeZone, new Date(instant))
  return new Date(instant)
}
