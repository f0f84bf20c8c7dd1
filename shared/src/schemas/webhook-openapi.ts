import { z } from 'zod'
import { WEBHOOK_EVENT_LABELS, WEBHOOK_TEST_EVENT } from './webhook.ts'
import { webhookExample } from './webhook-examples.ts'
import { WEBHOOK_TYPES, type WebhookDataType, webhookBody } from './webhook-payloads.ts'

/** The published JSON Schema (2020-12) of one event's whole body: what a receiver may validate against. */
export function webhookJsonSchema(type: WebhookDataType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(webhookBody(type), {
    target: 'draft-2020-12',
    io: 'output',
  })
  return schema
}

const label = (type: WebhookDataType) =>
  type === WEBHOOK_TEST_EVENT ? 'A test event, sent by "Send test event"' : WEBHOOK_EVENT_LABELS[type]

interface WebhookOperation {
  operationId: string
  summary: string
  description: string
  parameters: Array<{
    name: string
    in: 'header'
    required: boolean
    schema: { type: 'string' }
    description: string
  }>
  requestBody: {
    required: boolean
    content: Record<string, { schema: Record<string, unknown>; example: unknown }>
  }
  responses: Record<string, { description: string }>
  /** None a receiver must hold: the webhook-signature header, checked with its endpoint's secret, proves the sender. */
  security: []
}

/**
 * The OpenAPI 3.1 `webhooks` object: one POST per event type, its body's schema and an example, the
 * Standard Webhooks headers, and what the receiver answers (docs/webhooks.md says the rest).
 */
export function webhooksOpenApi(): Record<string, { post: WebhookOperation }> {
  const header = (description: string) => ({
    required: true,
    schema: { type: 'string' as const },
    description,
  })
  return Object.fromEntries(
    WEBHOOK_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: label(type),
          description: `Sent as \`${type}\`, signed per Standard Webhooks (docs/webhooks.md).`,
          parameters: [
            { name: 'webhook-id', in: 'header' as const, ...header('The same on every retry and replay') },
            { name: 'webhook-timestamp', in: 'header' as const, ...header('Seconds since the epoch') },
            { name: 'webhook-signature', in: 'header' as const, ...header('v1,<base64 HMAC-SHA256>') },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: webhookJsonSchema(type), example: webhookExample(type) },
            },
          },
          responses: {
            '200': { description: 'Any 2xx within 10 seconds: delivered' },
            default: { description: 'Anything else, or no answer: retried later' },
          },
          security: [],
        },
      },
    ]),
  )
}
