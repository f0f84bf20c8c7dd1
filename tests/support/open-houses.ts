import type { TestApp } from './app.ts'
import { guestFields, propertyFields, scheduleFields } from './factories.ts'

/** Adds a property to the agent's inventory and schedules an open house on it through the API. */
export async function scheduleOpenHouse(
  t: Pick<TestApp, 'call'>,
  agent: { token: string; agent: { id: number } },
  overrides: Record<string, unknown> = {},
) {
  const item = await t.call('POST', '/reinventorymgmt/saveREInventory', {
    token: agent.token,
    body: {
      owningREAgentId: agent.agent.id,
      rePropertyDTO: propertyFields(),
      reInventoryPropertyStatus: 'Property Created',
    },
  })
  if (item.status !== 201) throw new Error(`inventory: ${JSON.stringify(item.body)}`)
  const res = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
    token: agent.token,
    body: scheduleFields(item.body.data.reProperty.id, { reInventoryId: item.body.data.id, ...overrides }),
  })
  if (res.status !== 201) throw new Error(`schedule: ${JSON.stringify(res.body)}`)
  return res.body.data as {
    id: number
    rePropertyId: number
    publishLevel: string
    hostingREAgentId: number | null
  }
}

/**
 * A Team Lead or Admin Team Member schedules for a teammate (the listing agent): it types the house in,
 * and the house joins the listing agent's inventory.
 */
export async function scheduleFor(
  t: TestApp,
  scheduler: { token: string },
  listingAgentId: number,
  overrides: Record<string, unknown> = {},
) {
  const property = await t.call('POST', '/propertymgmt/saveREProperty', {
    token: scheduler.token,
    body: propertyFields(),
  })
  if (property.status !== 201) throw new Error(`property: ${JSON.stringify(property.body)}`)
  const res = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
    token: scheduler.token,
    body: scheduleFields(property.body.data.id, { listingREAgentId: listingAgentId, ...overrides }),
  })
  if (res.status !== 201) throw new Error(`schedule: ${JSON.stringify(res.body)}`)
  return res.body.data as { id: number; rePropertyId: number; listingREAgentId: number }
}

export async function publish(
  t: TestApp,
  agent: { token: string; agent: { id: number } },
  id: number,
  level = 'Open To All',
) {
  return t.call(
    'POST',
    `/openhousemgmt/publishOpenHouseOpportunity/${id}/${agent.agent.id}/${encodeURIComponent(level)}`,
    {
      token: agent.token,
    },
  )
}

/** An open house the listing agent schedules and offers to all, claimed by another agent who hosts it. */
export async function scheduleHostedBy(
  t: Pick<TestApp, 'call'>,
  listing: { token: string; agent: { id: number } },
  host: { token: string; agent: { id: number } },
) {
  const oh = await scheduleOpenHouse(t, listing)
  const published = await publish(t as TestApp, listing, oh.id)
  if (published.status !== 200) throw new Error(`publish: ${JSON.stringify(published.body)}`)
  const claimed = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
    token: host.token,
  })
  if (claimed.status !== 200) throw new Error(`claim: ${JSON.stringify(claimed.body)}`)
  return oh
}

/**
 * The agent's prospect behind a guest sign-in: the sign-in answers its visit's id, never the prospect's
 * (decision 029).
 */
export async function prospectOfVisit(t: Pick<TestApp, 'db'>, visitId: number): Promise<number> {
  const row = await t.db
    .selectFrom('openHouseAttendee')
    .select('prospectId')
    .where('id', '=', visitId)
    .executeTakeFirstOrThrow()
  return row.prospectId
}

/** A guest of `listing`'s open house hosted by `host`: the host's lead, seen masked by the listing agent. */
export async function hostedGuest(
  t: Pick<TestApp, 'call' | 'db'>,
  listing: { token: string; agent: { id: number } },
  host: { token: string; agent: { id: number } },
) {
  const oh = await scheduleHostedBy(t, listing, host)
  const res = await t.call('POST', '/public/saveProspect', { body: guestFields(oh.id) })
  if (res.status !== 201) throw new Error(`guest: ${JSON.stringify(res.body)}`)
  return { openHouseId: oh.id, prospectId: await prospectOfVisit(t, res.body.data.id) }
}
