import type { JsonValue } from '../../db/types.ts'
import { metrics } from '../../lib/metrics.ts'
import type { WebhookRepo } from './repo.ts'

// Follow Up Boss's documented events API: POST {base}/v1/events with HTTP Basic auth (the API key as the
// user name, an empty password). 'Visited Open House' is one of the types that start its action plans.

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

/** Follow Up Boss answered something other than 2xx: BullMQ tries again with backoff. */
export class FubRefusedError extends Error {}

/**
 * Posts one sign-in to the agent's Follow Up Boss. An agent who removed its key since is skipped; a 4xx
 * other than 429 will not get better by retrying, so it fails at once for the log.
 */
export function createFubProcessor(
  repo: WebhookRepo,
  config: { fub: { apiUrl: string }; webhooks: { timeoutMs: number } },
) {
  return async function visit({ agentId, event }: { agentId: number; event: Record<string, unknown> }) {
    const connector = await repo.fub(agentId)
    if (!connector) {
      metrics.count('delivery', { channel: 'crm', outcome: 'skipped' })
      return 'skipped'
    }
    // A refusal or no answer is tried again by BullMQ (its attempts), so it is counted as retrying.
    const res = await fetch(`${config.fub.apiUrl}/v1/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${connector.apiKey}:`).toString('base64')}`,
        'x-system': 'Porchlight',
      },
      body: JSON.stringify(event),
      signal: AbortSignal.timeout(config.webhooks.timeoutMs),
    }).catch((err: unknown) => {
      metrics.count('delivery', { channel: 'crm', outcome: 'retrying' })
      throw err
    })
    await res.body?.cancel()
    if (!res.ok) {
      metrics.count('delivery', { channel: 'crm', outcome: 'retrying' })
      throw new FubRefusedError(`Follow Up Boss answered ${res.status}`)
    }
    metrics.count('delivery', { channel: 'crm', outcome: 'delivered' })
    return 'sent'
  }
}
