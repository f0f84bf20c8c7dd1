import { z } from 'zod'
import { CustomAnswerSchema } from './custom-question.ts'
import { Feedback } from './feedback.ts'
import { OpenHouseDetails } from './open-house.ts'
import { Property } from './property.ts'
import { Prospect } from './prospect.ts'
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, type WebhookEvent } from './webhook.ts'

// The one source of every webhook body: the server builds each event's `data` and parses it through
// these before it is stored (what is delivered has exactly these fields), docs/webhooks.md's examples
// and the OpenAPI document's `webhooks` are generated from them (webhook-openapi.ts,
// scripts/webhook-docs.ts). An agent id always travels with the agent's name beside it.

const name = (who: string) => z.string().describe(`${who}'s first and last name`)

/**
 * The open house as getOpenHouseDetails answers it (with its property and its agents' names), less
 * `permissions`: what a caller may do depends on who asks, and a webhook is nobody's request.
 */
export const WebhookOpenHouse = OpenHouseDetails.omit({
  permissions: true,
  copyOf: true,
  customQuestions: true,
}).meta({ title: 'OpenHouse' })

/** The prospect as the receiving agent may see it in the app, with its owner's name. */
export const WebhookProspect = Prospect.extend({
  createdByREAgentName: name('The agent whose lead it is'),
}).meta({ title: 'Prospect' })

export const WebhookConsent = z
  .object({
    prospectId: z.number().int(),
    emailConsent: z.boolean(),
    smsConsent: z.boolean(),
    consentText: z.string().nullable(),
    consentAt: z.string().nullable(),
  })
  .meta({ title: 'Consent' })

export const WebhookAttendee = z
  .object({
    id: z.number().int().describe('The visit'),
    openHouseId: z.number().int(),
    prospectId: z.number().int(),
    signedInAt: z.string(),
    captureDevice: z.enum(['phone', 'tablet', 'computer', 'kiosk']).nullable(),
    capturedOffline: z.boolean(),
    listingAgentConsent: z.boolean(),
    answers: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('What the guest typed at this visit; null unless the receiving agent may see its details'),
    customAnswers: z.array(CustomAnswerSchema),
  })
  .meta({ title: 'Attendee' })

export const WebhookFeedback = Feedback.extend({
  hostingREAgentName: name('The host when the feedback was given').nullable(),
}).meta({ title: 'Feedback' })

/** On a team's endpoint: whose event it is. */
export const WebhookTeam = z
  .object({
    id: z.number().int(),
    reTeamName: z.string(),
    agentId: z.number().int().describe('The member whose event it is'),
    agentName: name('The member'),
  })
  .meta({ title: 'Team' })

/** When an open house takes place. */
export const WebhookSchedule = z
  .object({
    scheduledDate: z.string().nullable(),
    scheduledStartTime: z.string(),
    scheduledEndTime: z.string(),
    openHouseTimezone: z.string(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
  })
  .meta({ title: 'Schedule' })

/** An agent named with its id. */
export const WebhookAgent = z
  .object({ reAgentId: z.number().int(), reAgentName: z.string() })
  .meta({ title: 'Agent' })

export const WITHDRAWN_BY = ['host', 'listingAgent'] as const

const openHouseData = {
  openHouse: WebhookOpenHouse.describe(
    'The open house with its agents’ names, as getOpenHouseDetails answers it',
  ),
  property: Property.meta({ title: 'Property', description: 'Its property, with completePropertyAddress' }),
}
const prospect = WebhookProspect.describe(
  'The guest, as the receiving agent may see it (masked: contactMasked)',
)
const consent = WebhookConsent.describe('What the guest agreed to, and when')
const customAnswers = z
  .array(CustomAnswerSchema.meta({ title: 'CustomAnswer' }))
  .describe("The guest's answers to the open house's own questions, in their order")
const team = { team: WebhookTeam.optional().describe("Only on a team's endpoint") }

/** Each event's `data`. */
export const WEBHOOK_DATA = {
  'prospect.created': z.object({
    prospect,
    consent,
    ...openHouseData,
    customAnswers,
    ...team,
  }),
  'attendee.added': z.object({
    attendee: WebhookAttendee.describe('The visit'),
    prospect,
    consent,
    ...openHouseData,
    ...team,
  }),
  'feedback.submitted': z.object({
    feedback: WebhookFeedback.describe('The ratings and the text'),
    prospect,
    ...openHouseData,
    ...team,
  }),
  'openHouse.published': z.object({ ...openHouseData, ...team }),
  'openHouse.claimed': z.object({ ...openHouseData, ...team }),
  'openHouse.rescheduled': z.object({
    ...openHouseData,
    previous: WebhookSchedule.describe('When it was to take place before'),
    current: WebhookSchedule.describe('When it takes place now (as in openHouse)'),
    ...team,
  }),
  'openHouse.withdrawn': z.object({
    ...openHouseData,
    withdrawnBy: z
      .enum(WITHDRAWN_BY)
      .describe(
        "host: its host withdrew from hosting, and it is offered again; listingAgent: the listing agent took the offer back ('Hosting Myself')",
      ),
    previousHost: WebhookAgent.nullable().describe('Who hosted it before (null: nobody had claimed it)'),
    ...team,
  }),
  'openHouse.canceled': z.object({ ...openHouseData, ...team }),
  'consent.changed': z.object({ prospect, consent, ...team }),
  [WEBHOOK_TEST_EVENT]: z.object({ endpointId: z.number().int(), message: z.string() }),
} satisfies Record<WebhookEvent | typeof WEBHOOK_TEST_EVENT, z.ZodObject>

export type WebhookDataType = keyof typeof WEBHOOK_DATA
export type WebhookData<E extends WebhookDataType> = z.input<(typeof WEBHOOK_DATA)[E]>

/** The whole body of one event, as POSTed. */
export function webhookBody<E extends WebhookDataType>(type: E) {
  return z.object({
    type: z.literal(type),
    timestamp: z.string().describe('When it happened (ISO 8601)'),
    data: WEBHOOK_DATA[type],
  })
}

/** Every type an endpoint can receive: what it may choose, and the test event. */
export const WEBHOOK_TYPES = [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT] as const
