// What the printed door sign says, word for word: the web's printable page and the server's PDF draw
// the same lines. Plain, without zod.

const DOOR_SIGN_BRAND = 'Porchlight'
export const DOOR_SIGN_CALL = 'Scan to sign in — no app needed'

/** What the door sign shows of an open house (OpenHouseDetails has all of it). */
interface DoorSignFacts {
  scheduledDate: string | null
  scheduledStartTime: string
  scheduledEndTime: string
  listingREAgentName: string
  /** Absent where an older answer lacks it: the sign then names no brokerage. */
  listingREAgentBrokerage?: string | null
  hostingREAgentName: string | null
  reProperty: {
    propertyAddress1: string
    propertyAddress2?: string | null
    propertyCity: string
    propertyState: string
    propertyZipCode: string
    propertyZipPlus4?: string | null
  }
}

export interface DoorSignText {
  brand: string
  /** The street line, e.g. '123 Porch Lane, Unit 4'. */
  street: string
  /** City, state and zip. */
  place: string
  /** 'Sunday, 03/15/2026': the calendar date of the open house, in its own time zone. */
  date: string | null
  /** '1:00 PM – 3:00 PM', the slots as scheduled in the open house's time zone. */
  time: string
  /** Who greets the guests: the host, or the listing agent while nobody hosts. */
  agentName: string
  /** 'Listed by Harbor Realty': the listing brokerage, as advertising of a listing must name it. */
  brokerage: string | null
  call: string
}

const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' })

/**
 * The sign's lines. The date is a calendar date and the times are slot labels, both already in the
 * open house's own time zone, so nothing here converts between zones.
 */
export function doorSignText(oh: DoorSignFacts): DoorSignText {
  const p = oh.reProperty
  const zip = p.propertyZipPlus4 ? `${p.propertyZipCode}-${p.propertyZipPlus4}` : p.propertyZipCode
  return {
    brand: DOOR_SIGN_BRAND,
    street: p.propertyAddress2 ? `${p.propertyAddress1}, ${p.propertyAddress2}` : p.propertyAddress1,
    place: `${p.propertyCity}, ${p.propertyState} ${zip}`,
    date: oh.scheduledDate ? longDate(oh.scheduledDate) : null,
    time: `${oh.scheduledStartTime} – ${oh.scheduledEndTime}`,
    agentName: oh.hostingREAgentName ?? oh.listingREAgentName,
    brokerage: oh.listingREAgentBrokerage?.trim() ? `Listed by ${oh.listingREAgentBrokerage.trim()}` : null,
    call: DOOR_SIGN_CALL,
  }
}

/** 'YYYY-MM-DD' → 'Sunday, 03/15/2026' (the app's MM/dd/yyyy, with the day a guest looks for). */
function longDate(iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-')
  const date = new Date(`${year}-${month}-${day}T00:00:00Z`)
  if (Number.isNaN(date.getTime())) return iso
  return `${weekday.format(date)}, ${month}/${day}/${year}`
}

/** The PDF's file name, from the street line: '12 Elm St, Unit 4' → 'door-sign-12-elm-st-unit-4.pdf'. */
export function doorSignFileName(street: string): string {
  const base = street
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .replace(/-$/, '')
  return `door-sign-${base || 'open-house'}.pdf`
}
