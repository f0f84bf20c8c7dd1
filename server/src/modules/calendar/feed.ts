import { completeAddress, type OpenHouseDetails } from '@porchlight/shared'
import { createEvent, createEvents, type EventAttributes } from 'ics'
import { paramValue, refold } from '../../lib/fold.ts'
import type { CalendarRepo } from './repo.ts'

type Row = Awaited<ReturnType<CalendarRepo['upcoming']>>[number]

/**
 * SEQUENCE must grow with every change a calendar should take in (RFC 5545 §3.8.7.4); the seconds of the
 * last change since 2024 always do, and fit the 31-bit integer some clients store it in until 2092.
 */
const SEQUENCE_EPOCH = Date.UTC(2024, 0, 1)
export const sequenceOf = (updated: Date) =>
  Math.max(0, Math.floor((updated.getTime() - SEQUENCE_EPOCH) / 1000))

function eventOf(oh: Row, agentId: number, publicUrl: string): EventAttributes {
  const updated = new Date(oh.updatedDate)
  const start = new Date(oh.startsAt as Date).getTime()
  const end = new Date(oh.endsAt as Date).getTime()
  const hosting = oh.hostingReAgentId === agentId && oh.listingReAgentId !== agentId
  const description = [
    oh.openHouseCanceledFlag
      ? `Canceled${oh.openHouseCancelReason ? `: ${oh.openHouseCancelReason}` : ''}`
      : '',
    `Listing agent: ${oh.listingFirstName} ${oh.listingLastName}`,
    oh.hostFirstName ? `Host: ${oh.hostFirstName} ${oh.hostLastName}` : 'Host: not yet claimed',
    oh.openHouseInstructions ?? '',
  ]
    .filter(Boolean)
    .join('\n')
  return {
    // The same UID as the open house's own .ics download: a calendar holding both keeps one event.
    uid: `open-house-${oh.id}@porchlight`,
    title: `${oh.openHouseCanceledFlag ? 'Canceled: ' : ''}${hosting ? 'Hosting' : 'Open house'}: ${oh.propertyAddress1}`,
    description,
    location: completeAddress(oh),
    ...(oh.propertyLatitude !== null && oh.propertyLongitude !== null
      ? { geo: { lat: oh.propertyLatitude, lon: oh.propertyLongitude } }
      : {}),
    url: `${publicUrl}/openhouses/schedule/${oh.id}/manage`,
    organizer: organizerOf(`${oh.listingFirstName} ${oh.listingLastName}`, oh.listingEmail),
    // Instants in UTC: every client shows them in its own zone, right across daylight-saving changes.
    start,
    end,
    status: oh.openHouseCanceledFlag ? 'CANCELLED' : 'CONFIRMED',
    sequence: sequenceOf(updated),
    created: new Date(oh.createdDate).getTime(),
    lastModified: updated.getTime(),
    // DTSTAMP from the last change, not the request: an unchanged feed reads the same every time.
    ...({ timestamp: updated.getTime() } as object),
  }
}

/** The agent's open houses as one iCalendar (RFC 5545) document. */
export function calendarOf(rows: readonly Row[], agentId: number, publicUrl: string): string {
  const { error, value } = createEvents(
    rows.map((oh) => eventOf(oh, agentId, publicUrl)),
    { productId: 'porchlight/open-houses', calName: 'Porchlight open houses', method: 'PUBLISH' },
  )
  if (error || !value) throw error ?? new Error('calendar feed could not be built')
  return refold(value)
}

/** The listing agent as ORGANIZER: its name as typed (RFC 6868 escapes a quote in CN), its address. */
const organizerOf = (name: string, email: string) => ({ name: paramValue(name.trim()), email })

/**
 * One open house as its own .ics ("Add to calendar"), the same event as in the feed (same UID and
 * SEQUENCE): a calendar that imports it again after a change or a cancellation updates the event, and
 * a canceled one reads STATUS:CANCELLED with its title marked.
 */
export function eventFileOf(
  oh: OpenHouseDetails & { startsAt: string; endsAt: string },
  organizer: { name: string; email: string } | null,
  publicUrl: string,
): string {
  const updated = new Date(oh.updatedDate)
  const canceled = oh.openHouseCanceledFlag
  const { error, value } = createEvent({
    uid: `open-house-${oh.id}@porchlight`,
    title: `${canceled ? 'Canceled: ' : ''}Open house: ${oh.reProperty.propertyAddress1}`,
    description: [
      canceled ? `Canceled${oh.openHouseCancelReason ? `: ${oh.openHouseCancelReason}` : ''}` : '',
      `Listing agent: ${oh.listingREAgentName}`,
      oh.hostingREAgentName ? `Host: ${oh.hostingREAgentName}` : 'Host: not yet claimed',
      oh.openHouseInstructions ?? '',
    ]
      .filter(Boolean)
      .join('\n'),
    location: oh.reProperty.completePropertyAddress,
    url: `${publicUrl}/openhouses/schedule/${oh.id}/manage`,
    ...(organizer ? { organizer: organizerOf(organizer.name, organizer.email) } : {}),
    start: Date.parse(oh.startsAt),
    end: Date.parse(oh.endsAt),
    status: canceled ? 'CANCELLED' : 'CONFIRMED',
    sequence: sequenceOf(updated),
    created: Date.parse(oh.createdDate),
    lastModified: updated.getTime(),
    ...({ timestamp: updated.getTime() } as object),
    productId: 'porchlight/open-houses',
  })
  if (error || !value) throw error ?? new Error('calendar event could not be built')
  return refold(value)
}
