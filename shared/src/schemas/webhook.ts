import { z } from 'zod'

/** What an endpoint may listen for (docs/webhooks.md describes each payload). */
export const WEBHOOK_EVENTS = [
  'prospect.created',
  'attendee.added',
  'feedback.submitted',
  'openHouse.published',
  'openHouse.claimed',
  'openHouse.rescheduled',
  'openHouse.withdrawn',
  'openHouse.canceled',
  'consent.changed',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** The type of the test event "Send test event" delivers (an endpoint need not listen for it). */
export const WEBHOOK_TEST_EVENT = 'webhook.test'

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'prospect.created': 'A new prospect signs in',
  'attendee.added': 'A guest is added to an open house',
  'feedback.submitted': 'A guest gives feedback',
  'openHouse.published': 'An open house is published',
  'openHouse.claimed': 'An open house is claimed',
  'openHouse.rescheduled': 'An open house moves to another date or time',
  'openHouse.withdrawn': 'A host withdraws, or an offer to host is taken back',
  'openHouse.canceled': 'An open house is canceled',
  'consent.changed': 'A guest changes consent',
}

export const SaveWebhookEndpointBody = z.object({
  url: z
    .string({ error: 'Enter the address that receives the events' })
    .trim()
    .max(2000, { error: 'At most 2,000 characters' })
    .pipe(z.url({ protocol: /^https?$/, error: 'Enter a full http:// or https:// address' })),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: 'Not an event Porchlight sends' }))
    .min(1, { error: 'Choose at least one event' })
    .transform((events) => [...new Set(events)]),
  description: z
    .string()
    .trim()
    .max(200, { error: 'At most 200 characters' })
    .nullish()
    .transform((v) => v || null),
  /** A team the caller leads or co-leads: the endpoint hears the events of everyone in that team. */
  teamId: z
    .number({ error: 'Choose a team you lead' })
    .int({ error: 'Choose a team you lead' })
    .positive({ error: 'Choose a team you lead' })
    .nullish()
    .transform((v) => v ?? null),
})
export type SaveWebhookEndpointBody = z.input<typeof SaveWebhookEndpointBody>

export const WebhookEndpoint = z.object({
  id: z.number(),
  reAgentId: z.number(),
  /** A team's endpoint: it hears the events of everyone in the team, and its leads manage it. */
  teamId: z.number().nullable(),
  teamName: z.string().nullable(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  /** Set when three days of failed attempts disabled it; a successful replay or test enables it again. */
  disabledAt: z.string().nullable(),
  failingSince: z.string().nullable(),
  createdDate: z.string(),
})
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>

export const CreatedWebhookEndpoint = z.object({ id: z.number(), secret: z.string() })
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const

export const WebhookDelivery = z.object({
  id: z.number(),
  endpointId: z.number(),
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  responseStatus: z.number().nullable(),
  latencyMs: z.number().nullable(),
  responseExcerpt: z.string().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  createdDate: z.string(),
})
export type WebhookDelivery = z.infer<typeof WebhookDelivery>

export const SaveFubConnectorBody = z.object({
  apiKey: z
    .string({ error: 'Enter your Follow Up Boss API key' })
    .trim()
    .min(8, { error: 'That does not look like a Follow Up Boss API key' })
    .max(200, { error: 'At most 200 characters' })
    .regex(/^[\x21-\x7e]+$/, { error: 'That does not look like a Follow Up Boss API key' }),
})
export type SaveFubConnectorBody = z.input<typeof SaveFubConnectorBody>

export const FUB_CONNECTOR_STATUSES = ['ok', 'failing', 'rejected'] as const
export const FubConnectorStatus = z.enum(FUB_CONNECTOR_STATUSES)
export type FubConnectorStatus = z.infer<typeof FubConnectorStatus>

/**
 * The key itself is never answered: only whether there is one, and its last four characters. `status`:
 * 'rejected' when Follow Up Boss refused the key (leads wait for a new one), 'failing' when it did not
 * answer or refused a lead; `pending` counts the leads waiting for it (decision 041).
 */
export const FubConnector = z.object({
  connected: z.boolean(),
  apiKeyLast4: z.string().nullable(),
  createdDate: z.string().nullable(),
  status: FubConnectorStatus,
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  pending: z.number().int().min(0),
})
export type FubConnector = z.infer<typeof FubConnector>
