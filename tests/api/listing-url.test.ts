// A listing's link is opened by agents in the app, by guests from their follow-up mail and by CRMs: it
// is an http(s) address or nothing. A javascript:, data: or file: URL (any case, any spacing) or an
// address without its scheme is refused with 422 on `listingURL`, on create and on edit, and never stored.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, propertyFields, scheduleFields } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
let agent: Awaited<ReturnType<typeof makePlannedAgent>>

beforeAll(async () => {
  t = await buildTestApp()
  agent = await makePlannedAgent(t.db)
})
afterAll(async () => {
  await t?.close()
})

const REFUSED = [
  'javascript:alert(document.cookie)',
  'JavaScript:alert(1)',
  '  javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '//evil.example/listing',
  'www.zillow.com/homedetails/12-Lantern-Way',
  'https://',
]

async function inventoryItem() {
  const item = await t.call('POST', '/reinventorymgmt/saveREInventory', {
    token: agent.token,
    body: {
      owningREAgentId: agent.agent.id,
      rePropertyDTO: propertyFields(),
      reInventoryPropertyStatus: 'Property Created',
    },
  })
  expect(item.status).toBe(201)
  return { propertyId: item.body.data.reProperty.id as number, inventoryId: item.body.data.id as number }
}

const refusal = {
  error: { code: 'VALIDATION', message: expect.any(String) },
  errors: [{ field: 'listingURL', message: 'Enter a full http:// or https:// address' }],
}

describe('the listing URL', () => {
  it.each(REFUSED)('refuses %j when an open house is saved', async (listingURL) => {
    const { propertyId, inventoryId } = await inventoryItem()
    const res = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: agent.token,
      body: scheduleFields(propertyId, { reInventoryId: inventoryId, listingURL }),
    })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(refusal)
  })

  it('refuses each on edit too, keeping the link it had; takes http(s) and no link at all', async () => {
    const listing = 'https://www.zillow.com/homedetails/12-Lantern-Way/4411_zpid/'
    const oh = await scheduleOpenHouse(t, agent, { listingURL: listing })
    const edit = (listingURL: string | null) =>
      t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, {
        token: agent.token,
        body: scheduleFields(oh.rePropertyId, { listingURL }),
      })
    for (const bad of REFUSED) {
      const res = await edit(bad)
      expect(res.status, bad).toBe(422)
      expect(res.body).toEqual(refusal)
    }
    const stored = await t.db
      .selectFrom('openHouse')
      .select('listingUrl')
      .where('id', '=', oh.id)
      .executeTakeFirstOrThrow()
    expect(stored.listingUrl).toBe(listing)

    expect((await edit('HTTP://example.com/listing?id=1')).status).toBe(200)
    const cleared = await edit('')
    expect(cleared.status).toBe(200)
    expect(cleared.body.data.listingURL).toBeNull()
  })
})
