import type { EventData } from '@porchlight/shared'
import type { LiveContext } from '../../live/types.ts'

// The attendee board's live updates (live/events.ts); the board is the page watching the open house.

/** How long a guest who just signed in stays highlighted on the board (DESIGN.md "Look and feel"). */
const HIGHLIGHT_MS = 8_000

/** A guest signed in: the row (refetched) is highlighted for a few seconds and read out. */
export function showArrival(live: LiveContext, data: EventData['attendee.added']) {
  const { openHouseId, signedInAt, firstName, lastInitial } = data
  if (!live.watching(openHouseId)) return
  live.markFresh(openHouseId, signedInAt, true)
  live.later(HIGHLIGHT_MS, () => live.markFresh(openHouseId, signedInAt, false))
  live.announce(`${firstName} ${lastInitial}. just signed in.`)
}

export function showFeedback(live: LiveContext, data: EventData['feedback.submitted']) {
  if (live.watching(data.openHouseId)) {
    live.announce('New feedback received. The feedback summary is updated.')
  }
}
