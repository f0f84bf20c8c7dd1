import type { JsonValue } from '../../db/types.ts'

// Follow Up Boss's documented events API: POST {base}/v1/events with HTTP Basic auth (the API key as the
// user name, an empty password). 'Visited Open House' is one of the types that start its action plans.
// The sending, and what each answer means, is fub-deliver.ts (decision 041).

const ANSWER_LABELS: Record<string, string> = {
  currentHouseStatus: 'Current home',
  homeBuyingTimelines: 'Buying timeline',
  workingWithREAgentFlag: 'Working with an agent',
  bestTimeToContact: 'Best time to contact',
  heardAboutThisOpenHouse: 'Heard about this open house',
}

const spoken = (v: JsonValue): string =>
  v === true ? 'Yes' : v === false ? 'No' : Array.isArray(v) ? v.map(spoken).join(', ') : String(v)

/** The visitor's answers, one per line ("Buying timeline: 0-3 months"). */
export function answerLines(answers: Record<string, JsonValue> | null): string[] {
  if (!answers) return []
  const lines: string[] = []
  for (const [key, label] of Object.entries(ANSWER_LABELS)) {
    const value = answers[key]
    if (value !== null && value !== undefined && value !== '') lines.push(`${label}: ${spoken(value)}`)
  }
  // Questions an open house adds of its own travel as { question: answer }.
  const custom = answers.customAnswers
  if (custom && typeof custom === 'object' && !Array.isArray(custom)) {
    for (const [question, value] of Object.entries(custom)) {
      if (value !== null && value !== '') lines.push(`${question}: ${spoken(value)}`)
    }
  }
  return lines
}

export interface FubVisitSource {
  prospect: {
    prospectFirstName: string
    prospectLastName: string
    prospectEmailId: string
    prospectPhoneNumber: string | null
  }
  answers: Record<string, JsonValue> | null
  openHouse: { mlsId: string | null; listingUrl: string | null; scheduledDate: string | null }
  address: string
  /** When the guest signed in: for a sign-in kept on a phone with no signal, when it was made there. */
  occurredAt: Date
  property: {
    propertyAddress1: string
    propertyAddress2: string | null
    propertyCity: string
    propertyState: string
    propertyZipCode: string
  } | null
}

/** The 'Visited Open House' event for one guest sign-in, as Follow Up Boss documents it. */
export function fubVisitEvent(s: FubVisitSource): Record<string, unknown> {
  const p = s.prospect
  const lines = [
    `Signed in at the open house at ${s.address}${s.openHouse.scheduledDate ? ` on ${s.openHouse.scheduledDate}` : ''}.`,
    ...answerLines(s.answers),
  ]
  return {
    source: 'Porchlight',
    system: 'Porchlight',
    type: 'Visited Open House',
    message: lines.join('\n'),
    occurredAt: s.occurredAt.toISOString(),
    person: {
      firstName: p.prospectFirstName,
      lastName: p.prospectLastName,
      emails: [{ value: p.prospectEmailId }],
      phones: p.prospectPhoneNumber ? [{ value: p.prospectPhoneNumber }] : [],
    },
    property: s.property
      ? {
          street: [s.property.propertyAddress1, s.property.propertyAddress2].filter(Boolean).join(' '),
          city: s.property.propertyCity,
          state: s.property.propertyState,
          code: s.property.propertyZipCode,
          ...(s.openHouse.mlsId ? { mlsNumber: s.openHouse.mlsId } : {}),
          ...(s.openHouse.listingUrl ? { url: s.openHouse.listingUrl } : {}),
        }
      : undefined,
  }
}

/** A phone's clock may be a little ahead; a capture time further off than this is not believed. */
const CLOCK_SKEW_MS = 5 * 60_000
const OLDEST_CAPTURE_MS = 14 * 24 * 3600_000

/**
 * When a sign-in happened: the time the guest's phone says it was made (a sign-in kept offline and sent
 * later), when that is believable; otherwise now. Never later than now.
 */
export function captureTime(capturedAt: string | null, now: Date): Date {
  const at = capturedAt ? Date.parse(capturedAt) : Number.NaN
  if (Number.isNaN(at)) return now
  if (at > now.getTime() + CLOCK_SKEW_MS || at < now.getTime() - OLDEST_CAPTURE_MS) return now
  return new Date(Math.min(at, now.getTime()))
}
