// docs/webhooks.md's examples and field lists are written from the payload schemas in shared: this
// fails while the doc says something else than `pnpm docs:webhooks` would write now.

import { readFileSync } from 'node:fs'
import { WEBHOOK_TYPES } from '@porchlight/shared'
import { expect, it } from 'vitest'
import { renderWebhookDoc, WEBHOOK_DOC } from '../../scripts/webhook-docs.ts'

it('shows every event as its schema shapes it (run pnpm docs:webhooks after changing one)', () => {
  const doc = readFileSync(WEBHOOK_DOC, 'utf8')
  expect(doc, 'docs/webhooks.md is stale: run pnpm docs:webhooks').toBe(renderWebhookDoc(doc))
  for (const type of WEBHOOK_TYPES) {
    expect(doc).toContain(`### \`${type}\``)
    expect(doc).toContain(`"type": "${type}"`)
  }
})
