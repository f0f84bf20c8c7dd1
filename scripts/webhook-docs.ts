// Writes the payload part of docs/webhooks.md from the schemas in shared (webhook-payloads.ts): each
// event's `data` fields and an example that its schema shaped. `pnpm docs:webhooks` rewrites the doc;
// tests/api/webhook-docs.test.ts fails while the doc differs from what this writes.

import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TYPES,
  webhookExample,
  webhookJsonSchema,
} from '../shared/src/index.ts'

export const WEBHOOK_DOC = fileURLToPath(new URL('../docs/webhooks.md', import.meta.url))
const START =
  '<!-- webhook-payloads:start (written by pnpm docs:webhooks from shared/src/schemas/webhook-payloads.ts) -->'
const END = '<!-- webhook-payloads:end -->'

type Schema = {
  type?: string | string[]
  title?: string
  description?: string
  const?: unknown
  enum?: unknown[]
  anyOf?: Schema[]
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
}

function typeOf(s: Schema): string {
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ')
  if (s.title) return s.title
  if (s.enum) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' or ')
  if (s.type === 'array') return `array of ${s.items ? typeOf(s.items) : 'any'}`
  if (Array.isArray(s.type)) return s.type.join(' or ')
  return s.type ?? 'any'
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

function eventSection(type: (typeof WEBHOOK_TYPES)[number]): string {
  const body = webhookJsonSchema(type) as Schema
  const data = body.properties?.data ?? {}
  const label = type === WEBHOOK_TEST_EVENT ? 'A test event ("Send test event")' : WEBHOOK_EVENT_LABELS[type]
  const rows = Object.entries(data.properties ?? {}).map(([field, s]) => {
    const optional = data.required?.includes(field) ? '' : ' (optional)'
    return `| \`${field}\`${optional} | ${cell(typeOf(s))} | ${cell(s.description ?? '')} |`
  })
  return [
    `### \`${type}\``,
    '',
    `${label}.`,
    '',
    '| `data` field | type | what |',
    '| --- | --- | --- |',
    ...rows,
    '',
    '```json',
    JSON.stringify(webhookExample(type), null, 2),
    '```',
    '',
  ].join('\n')
}

/** The doc with its generated part written from the schemas. */
export function renderWebhookDoc(doc: string): string {
  const from = doc.indexOf(START)
  const to = doc.indexOf(END)
  if (from < 0 || to < from) throw new Error(`docs/webhooks.md has no ${START} … ${END} part`)
  const generated = WEBHOOK_TYPES.map(eventSection).join('\n')
  return `${doc.slice(0, from)}${START}\n\n${generated}\n${doc.slice(to)}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(WEBHOOK_DOC, 'utf8')
  const next = renderWebhookDoc(doc)
  if (next !== doc) writeFileSync(WEBHOOK_DOC, next)
  console.log(next === doc ? 'docs/webhooks.md is up to date' : 'docs/webhooks.md rewritten')
}
