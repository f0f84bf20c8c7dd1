import type { EventData, EventType } from '@porchlight/shared'
import { backgroundFailures } from '../failures.ts'
import { coalesced } from '../lib/coalesced.ts'
import type { Live } from './events.ts'
import { STATS_COALESCE_MS } from './stats.ts'

/**
 * Events that say only "refetch": they name no change, so pages that hear one or several in a moment
 * do the same thing. The seller's report page refetches the whole report on each.
 */
const REFETCH_HINTS: ReadonlySet<EventType> = new Set<EventType>(['sellerReport.changed'])

interface Hint {
  rooms: string | string[]
  type: EventType
  data: EventData[EventType]
  openHouseId?: number
}

/**
 * `live`, with each refetch hint told once per rooms and window (as 'stats.changed' is, realtime/stats.ts):
 * at 300 sign-ins a second on one open house, its seller pages hear five hints a second and refetch five
 * times, not 300; each hint goes at most a window after the change it follows. Every other event goes at once.
 */
export function withCoalescedHints(live: Live): Live & { stop(): void } {
  const hints = coalesced<Hint>(
    STATS_COALESCE_MS,
    (_key, h) => live.emit(h.rooms, h.type, h.data as never, h.openHouseId),
    (err, key) => backgroundFailures.report('after-commit', err, { hint: key }),
  )
  return {
    emit(rooms, type, data, openHouseId) {
      if (!REFETCH_HINTS.has(type)) return live.emit(rooms, type, data, openHouseId)
      hints.call(`${type} ${[rooms].flat().join(' ')}`, { rooms, type, data, openHouseId })
    },
    rooms: live.rooms,
    stop: () => hints.stop(),
  }
}
