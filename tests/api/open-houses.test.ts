import { FLEXI_DATE, FLEXI_TIME, messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import {
  daysFromNow,
  makePlannedAgent,
  makeTeam,
  propertyFields,
  scheduleFields,
} from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const agent = (overrides: Parameters<typeof makePlannedAgent>[1] = {}, plan?: string) =>
  makePlannedAgent(t.db, overrides, plan)
const claim = (oh: { id: number }, who: Agent) =>
  t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${who.agent.id}`, { token: who.token })
const fields = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field).sort()

const teamOf = (lead: Agent, members: Agent[]) => makeTeam(t.db, lead, members)

/** A property the caller has just typed in (SPEC §2 "a property added for scheduling"), in no inventory. */
async function typedProperty(who: Agent) {
  const res = await t.call('POST', '/propertymgmt/saveREProperty', {
    token: who.token,
    body: propertyFields(),
  })
  if (res.status !== 201) throw new Error(JSON.stringify(res.body))
  return res.body.data.id as number
}

async function property(owner: Agent) {
  const item = await t.call('POST', '/reinventorymgmt/saveREInventory', {
    token: owner.token,
    body: {
      owningREAgentId: owner.agent.id,
      rePropertyDTO: propertyFields(),
      reInventoryPropertyStatus: 'Property Created',
    },
  })
  return item.body.data as { id: number; reProperty: { id: number; completePropertyAddress: string } }
}

describe('inventory', () => {
  it('adds a property with its complete address, lists it for its owner only, and deletes it while just created', async () => {
    const owner = await agent()
    const item = await property(owner)
    expect(item.reProperty.completePropertyAddress).toMatch(
      /Lantern Way, Alpharetta, Georgia 30004, United States$/,
    )
    const list = await t.call(
      'GET',
      `/reinventorymgmt/getOHEligibleREInventoryByOwningREAgentId/${owner.agent.id}`,
      { token: owner.token },
    )
    expect(list.body.data.map((i: { id: number }) => i.id)).toEqual([item.id])

    const stranger = await agent()
    expect(
      (await t.call('GET', `/reinventorymgmt/getREInventoryDetails/${item.id}`, { token: stranger.token }))
        .status,
    ).toBe(404)
    expect(
      (await t.call('DELETE', `/reinventorymgmt/deleteREInventory/${item.id}`, { token: stranger.token }))
        .status,
    ).toBe(404)

    const deleted = await t.call('DELETE', `/reinventorymgmt/deleteREInventory/${item.id}`, {
      token: owner.token,
    })
    expect(deleted.body.data.message).toBe(messages.propertyDeletedFromInventory)
    const after = await t.call(
      'GET',
      `/reinventorymgmt/getOHEligibleREInventoryByOwningREAgentId/${owner.agent.id}`,
      { token: owner.token },
    )
    expect(after.body.data).toEqual([])
  })

  it('refuses to delete a property whose status moved past Property Created', async () => {
    const owner = await agent()
    const item = await property(owner)
    const updated = await t.call('PATCH', `/reinventorymgmt/saveREInventory/${item.id}`, {
      token: owner.token,
      body: { reInventoryPropertyStatus: 'Active' },
    })
    expect(updated.body.data.reInventoryPropertyStatus).toBe('Active')
    const res = await t.call('DELETE', `/reinventorymgmt/deleteREInventory/${item.id}`, {
      token: owner.token,
    })
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'INVALID_STATE', message: messages.inventoryDeleteFailed })
  })

  it('requires the property search form fields', async () => {
    const owner = await agent()
    const res = await t.call('POST', '/reinventorymgmt/saveREInventory', {
      token: owner.token,
      body: {
        owningREAgentId: owner.agent.id,
        rePropertyDTO: propertyFields({
          propertyCity: '',
          propertyCounty: '',
          propertyType: 'Castle',
          propertyCountry: 'Mexico',
        }),
        reInventoryPropertyStatus: 'Property Created',
      },
    })
    expect(res.status).toBe(422)
    expect(fields(res.body)).toEqual([
      'rePropertyDTO.propertyCity',
      'rePropertyDTO.propertyCountry',
      'rePropertyDTO.propertyCounty',
      'rePropertyDTO.propertyType',
    ])
  })
})

describe('scheduling', () => {
  it('saves an open house with its supporting data, not yet on offer', async () => {
    const me = await agent()
    const oh = await scheduleOpenHouse(t, me)
    const details = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: me.token })
    expect(details.body.data).toMatchObject({
      listingREAgentId: me.agent.id,
      hostingREAgentId: null,
      published: false,
      status: 'Not Hosted',
      balloonsPutOutFlag: true,
      publishLevelId: '-1',
      listingREAgentName: `Avery ${me.agent.reAgentLastName}`,
    })
    expect(details.body.data.startsAt).toBe(`${daysFromNow(3)}T${details.body.data.startsAt.slice(11)}`)
    const other = await agent()
    const offered = await t.call('GET', `/openhousemgmt/getAvailableToHostOH/${other.agent.id}`, {
      token: other.token,
    })
    expect(offered.body.data.map((o: { id: number }) => o.id)).not.toContain(oh.id)
  })

  it('checks the SPEC §5 schedule rules', async () => {
    const me = await agent()
    const item = await property(me)
    const res = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: me.token,
      body: scheduleFields(item.reProperty.id, {
        scheduledDate: daysFromNow(-1),
        openHousePreparationDate: daysFromNow(-2),
        openHouseInstructions: 'x'.repeat(201),
        openHouseFor: 'Lease',
        scheduledEndTime: '12:00 PM',
      }),
    })
    expect(res.status).toBe(422)
    expect(fields(res.body)).toEqual([
      'openHouseFor',
      'openHouseInstructions',
      'openHousePreparationDate',
      'scheduledDate',
      'scheduledEndTime',
    ])
  })

  it('refuses a second open house for the same property and date with the SPEC text', async () => {
    const me = await agent()
    const item = await property(me)
    const body = scheduleFields(item.reProperty.id)
    expect((await t.call('POST', '/openhousemgmt/saveOpenHouse', { token: me.token, body })).status).toBe(201)
    const dup = await t.call('POST', '/openhousemgmt/saveOpenHouse', { token: me.token, body })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toEqual({
      code: 'OPEN_HOUSE_ALREADY_SCHEDULED',
      message: messages.openHouseAlreadyScheduled,
    })
  })

  it('makes the listing agent the host when Hosting Myself, with no publish needed', async () => {
    const me = await agent()
    const oh = await scheduleOpenHouse(t, me, { publishLevel: 'Hosting Myself' })
    expect(oh).toMatchObject({ hostingREAgentId: me.agent.id, publishLevel: 'Hosting Myself' })
  })

  it('offers each role only its publish levels', async () => {
    const plain = await agent({ role: 'Real Estate Agent' })
    const item = await property(plain)
    const res = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: plain.token,
      body: scheduleFields(item.reProperty.id, { publishLevel: 'Real Estate Team' }),
    })
    expect(res.status).toBe(422)
    expect(fields(res.body)).toEqual(['publishLevel'])

    const lead = await agent({ role: 'Team Lead' })
    const leadItem = await property(lead)
    const mine = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: lead.token,
      body: scheduleFields(leadItem.reProperty.id, { publishLevel: 'Hosting Myself' }),
    })
    expect(mine.status).toBe(422)
  })

  it('stops creating at the plan limit with the SPEC text', async () => {
    const me = await agent({}, 'Solo')
    const item = await property(me)
    for (let i = 0; i < 24; i++) {
      await t.db
        .insertInto('openHouse')
        .values({
          rePropertyId: item.reProperty.id,
          listingReAgentId: me.agent.id,
          scheduledByReAgentId: me.agent.id,
          openHouseFor: 'Sale',
          scheduledStartTime: '1:00 PM',
          scheduledEndTime: '2:00 PM',
          publishLevel: 'Hosting Myself',
          publishLevelId: '0',
        })
        .execute()
    }
    const res = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: me.token,
      body: scheduleFields(item.reProperty.id),
    })
    expect(res.status).toBe(402)
    expect(res.body.error).toEqual({
      code: 'PLAN_LIMIT_OPEN_HOUSES',
      message: messages.openHouseLimitReached,
    })
    const usage = await t.call('GET', `/pricingplanmgmt/getPlanUtilization/${me.agent.id}`, {
      token: me.token,
    })
    expect(usage.body.data.pricingPlanUtilization.totalCreatedOpenHouses).toBe(24)
  })

  it('stops publishing at the plan limit', async () => {
    const me = await agent({}, 'Solo')
    const ids: number[] = []
    for (let i = 0; i < 13; i++) ids.push((await scheduleOpenHouse(t, me)).id)
    for (const id of ids.slice(0, 12)) expect((await publish(t, me, id)).status).toBe(200)
    const over = await publish(t, me, ids[12] as number)
    expect(over.status).toBe(402)
    expect(over.body.error).toEqual({ code: 'PLAN_LIMIT_PUBLISH', message: messages.publishLimitReached })
  })

  it('lets a Team Lead schedule for an accepted teammate only: not itself, a firm agent outside its teams, another firm', async () => {
    const lead = await agent({ role: 'Team Lead', brokerFirmLicense: 'FIRM-TL' })
    const member = await agent({ brokerFirmLicense: 'FIRM-TL' })
    const colleague = await agent({ brokerFirmLicense: 'FIRM-TL' })
    const outsider = await agent({ brokerFirmLicense: 'FIRM-X' })
    await teamOf(lead, [member])
    const propertyId = await typedProperty(lead)
    const ok = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: lead.token,
      body: scheduleFields(propertyId, { listingREAgentId: member.agent.id }),
    })
    expect(ok.status).toBe(201)
    expect(ok.body.data).toMatchObject({
      listingREAgentId: member.agent.id,
      scheduledByREAgentId: lead.agent.id,
      scheduledByREAgentName: `Avery ${lead.agent.reAgentLastName}`,
    })
    // The house joined the listing agent's inventory.
    const inventory = await t.call(
      'GET',
      `/reinventorymgmt/getOHEligibleREInventoryByOwningREAgentId/${member.agent.id}`,
      { token: member.token },
    )
    expect(inventory.body.data.map((i: { reProperty: { id: number } }) => i.reProperty.id)).toEqual([
      propertyId,
    ])
    for (const who of [lead, colleague, outsider]) {
      const res = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
        token: lead.token,
        body: scheduleFields(await typedProperty(lead), { listingREAgentId: who.agent.id }),
      })
      expect(res.status).toBe(422)
      expect(fields(res.body)).toEqual(['listingREAgentId'])
    }
  })

  it("schedules only the listing agent's houses: another agent's property is refused and stays free", async () => {
    const owner = await agent()
    const intruder = await agent()
    const item = await property(owner)
    const res = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: intruder.token,
      body: scheduleFields(item.reProperty.id),
    })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([{ field: 'rePropertyId', message: messages.propertyNotInInventory }])
    // The owner's date is still free.
    const mine = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: owner.token,
      body: scheduleFields(item.reProperty.id, { reInventoryId: item.id }),
    })
    expect(mine.status).toBe(201)
  })
})

describe('permissions of SPEC §6', () => {
  it('lets the Team Lead who scheduled for its teammate publish, see and cancel it, but not another lead', async () => {
    const lead = await agent({ role: 'Team Lead', brokerFirmLicense: 'FIRM-ACT' })
    const listingAgent = await agent({ brokerFirmLicense: 'FIRM-ACT' })
    const otherLead = await agent({ role: 'Team Lead', brokerFirmLicense: 'FIRM-NOT' })
    await teamOf(lead, [listingAgent])
    const created = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: lead.token,
      body: scheduleFields(await typedProperty(lead), { listingREAgentId: listingAgent.agent.id }),
    })
    const id = created.body.data.id
    const pub = (who: Agent) =>
      t.call(
        'POST',
        `/openhousemgmt/publishOpenHouseOpportunity/${id}/${listingAgent.agent.id}/Open%20To%20All`,
        {
          token: who.token,
        },
      )
    expect((await pub(otherLead)).status).toBe(404)
    const published = await pub(lead)
    expect(published.status).toBe(200)
    expect(published.body.data).toMatchObject({ published: true, listingREAgentId: listingAgent.agent.id })
    expect(
      (await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${id}`, { token: lead.token })).status,
    ).toBe(200)
    const canceled = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: lead.token,
      body: { openHouseId: id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(canceled.body.data.status).toBe('Canceled')
  })

  it('lets only the listing agent edit, publish, cancel and clone', async () => {
    const listing = await agent()
    const other = await agent()
    const oh = await scheduleOpenHouse(t, listing)
    const body = scheduleFields(oh.rePropertyId, { openHouseInstructions: 'changed' })
    // One answer for "not yours": an open house never offered to the caller does not exist for it.
    expect(
      (await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, { token: other.token, body })).status,
    ).toBe(404)
    expect((await publish(t, other, oh.id)).status).toBe(404)
    const cancel = { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true }
    expect(
      (await t.call('POST', '/openhousemgmt/cancelOpenHouse', { token: other.token, body: cancel })).status,
    ).toBe(404)
    expect(
      (await t.call('POST', `/openhousemgmt/cloneOpenHouse/${oh.id}`, { token: other.token })).status,
    ).toBe(404)
    // Offered to it, it may see the open house but still not change it.
    await publish(t, listing, oh.id)
    expect(
      (await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, { token: other.token, body })).status,
    ).toBe(403)
    expect(
      (await t.call('POST', '/openhousemgmt/cancelOpenHouse', { token: other.token, body: cancel })).status,
    ).toBe(403)
    expect(
      (await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: other.token })).status,
    ).toBe(200)

    const edited = await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, {
      token: listing.token,
      body,
    })
    expect(edited.body.data.openHouseInstructions).toBe('changed')
  })

  it('answers anonymous callers 403 SESSION_EXPIRED', async () => {
    const res = await t.call('GET', '/openhousemgmt/getMyUpcomingOH/1')
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe('SESSION_EXPIRED')
  })

  it('offers Market Center to the same firm only, and a team level to its members only', async () => {
    const listing = await agent({ role: 'Admin Team Member', brokerFirmLicense: 'FIRM-MC' })
    const sameFirm = await agent({ brokerFirmLicense: 'FIRM-MC' })
    const otherFirm = await agent({ brokerFirmLicense: 'FIRM-OTHER' })
    const market = await scheduleOpenHouse(t, listing, { publishLevel: 'Market Center' })
    await publish(t, listing, market.id, 'Market Center')
    expect((await claim(market, otherFirm)).status).toBe(404)
    const seen = await t.call('GET', `/openhousemgmt/getAvailableToHostOH/${sameFirm.agent.id}`, {
      token: sameFirm.token,
    })
    expect(seen.body.data.map((o: { id: number }) => o.id)).toContain(market.id)

    const member = await agent({ brokerFirmLicense: 'FIRM-MC' })
    const teamId = await teamOf(listing, [member])
    const teamOh = await scheduleOpenHouse(t, listing, { publishLevel: 'Real Estate Team' })
    expect((await publish(t, listing, teamOh.id, 'Real Estate Team')).body.data.publishLevelId).toBe(
      String(teamId),
    )
    expect((await claim(teamOh, sameFirm)).status).toBe(404)
    expect((await claim(teamOh, member)).status).toBe(200)
  })

  it('sends a flexible date through updateSchedule, which sets it and claims at once', async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await scheduleOpenHouse(t, listing, {
      scheduledDate: FLEXI_DATE,
      scheduledStartTime: FLEXI_TIME,
    })
    await publish(t, listing, oh.id)
    const list = await t.call('GET', `/openhousemgmt/getAvailableToHostOH/${host.agent.id}`, {
      token: host.token,
    })
    expect(list.body.data.find((o: { id: number }) => o.id === oh.id)?.status).toBe('Pick your own date')
    const direct = await claim(oh, host)
    expect(direct.status).toBe(409)
    expect(direct.body.error.code).toBe('INVALID_STATE')

    const flexiAgain = await t.call('PATCH', `/openhousemgmt/updateOpenHouseSchedule/${oh.id}`, {
      token: host.token,
      body: {
        scheduledDate: daysFromNow(4),
        scheduledStartTime: FLEXI_TIME,
        scheduledEndTime: '4:00 PM',
        openHouseTimezone: 'America/Chicago',
      },
    })
    expect(flexiAgain.status).toBe(422)
    const res = await t.call('PATCH', `/openhousemgmt/updateOpenHouseSchedule/${oh.id}`, {
      token: host.token,
      body: {
        scheduledDate: daysFromNow(4),
        scheduledStartTime: '2:00 PM',
        scheduledEndTime: '4:00 PM',
        openHouseTimezone: 'America/Chicago',
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      hostingREAgentId: host.agent.id,
      scheduledDate: daysFromNow(4),
      status: 'Hosted',
    })
  })

  it('locks date, times and publish level on edit once hosted', async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await scheduleOpenHouse(t, listing)
    await publish(t, listing, oh.id)
    await claim(oh, host)
    const res = await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, {
      token: listing.token,
      body: scheduleFields(oh.rePropertyId, {
        scheduledDate: daysFromNow(9),
        publishLevel: 'Market Center',
        mlsId: 'MLS-9',
      }),
    })
    expect(res.body.data).toMatchObject({
      scheduledDate: daysFromNow(3),
      publishLevel: 'Open To All',
      mlsId: 'MLS-9',
    })
  })

  it('releases the listing agent as host when it edits Hosting Myself to another level, so it can be offered', async () => {
    const listing = await agent({ brokerFirmLicense: 'FIRM-RELEASE' })
    const firmmate = await agent({ brokerFirmLicense: 'FIRM-RELEASE' })
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    expect(oh.hostingREAgentId).toBe(listing.agent.id)
    const edited = await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, {
      token: listing.token,
      body: scheduleFields(oh.rePropertyId, { publishLevel: 'Market Center' }),
    })
    expect(edited.status).toBe(200)
    expect(edited.body.data).toMatchObject({ publishLevel: 'Market Center', hostingREAgentId: null })

    // Not hosted: the date stays open to change, and Publish offers it to the firm, who may claim it.
    const moved = await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, {
      token: listing.token,
      body: scheduleFields(oh.rePropertyId, { publishLevel: 'Market Center', scheduledDate: daysFromNow(8) }),
    })
    expect(moved.body.data.scheduledDate).toBe(daysFromNow(8))
    expect((await publish(t, listing, oh.id, 'Market Center')).status).toBe(200)
    expect((await claim(oh, firmmate)).status).toBe(200)

    // And back: Hosting Myself on an open house with no host takes it off offer again.
    const own = await scheduleOpenHouse(t, listing, { publishLevel: 'Market Center' })
    expect((await publish(t, listing, own.id, 'Market Center')).status).toBe(200)
    const mine = await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${own.id}`, {
      token: listing.token,
      body: scheduleFields(own.rePropertyId, { publishLevel: 'Hosting Myself' }),
    })
    expect(mine.body.data).toMatchObject({
      publishLevel: 'Hosting Myself',
      hostingREAgentId: listing.agent.id,
    })
    const offered = await t.call('GET', `/openhousemgmt/getAvailableToHostOH/${firmmate.agent.id}`, {
      token: firmmate.token,
    })
    expect(offered.body.data.map((x: { id: number }) => x.id)).not.toContain(own.id)
  })

  it('lets only the host withdraw, never from Hosting Myself, and puts it back on offer', async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await scheduleOpenHouse(t, listing)
    await publish(t, listing, oh.id)
    await claim(oh, host)
    expect(
      (
        await t.call('DELETE', `/openhousemgmt/withdrawToHostOpenHouse/${oh.id}/${listing.agent.id}`, {
          token: listing.token,
        })
      ).status,
    ).toBe(403)
    const res = await t.call('DELETE', `/openhousemgmt/withdrawToHostOpenHouse/${oh.id}/${host.agent.id}`, {
      token: host.token,
    })
    expect(res.body.data).toMatchObject({ hostingREAgentId: null, status: 'Not Hosted' })

    const mine = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const self = await t.call(
      'DELETE',
      `/openhousemgmt/withdrawToHostOpenHouse/${mine.id}/${listing.agent.id}`,
      { token: listing.token },
    )
    expect(self.status).toBe(409)
  })

  it('cancels with a required reason, and a canceled open house cannot be claimed', async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await scheduleOpenHouse(t, listing)
    await publish(t, listing, oh.id)
    const noReason = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: listing.token,
      body: { openHouseId: oh.id },
    })
    expect(noReason.status).toBe(422)
    const res = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: listing.token,
      body: {
        openHouseId: oh.id,
        openHouseCancelReason: 'Seller Not Available',
        openHouseCanceledFlag: 'true',
      },
    })
    expect(res.body.data).toMatchObject({ status: 'Canceled', openHouseCancelReason: 'Seller Not Available' })
    expect((await claim(oh, host)).status).toBe(409)
  })

  it('clones into an undated copy, unless auto-clone is on', async () => {
    const listing = await agent()
    const oh = await scheduleOpenHouse(t, listing)
    const copy = await t.call('POST', `/openhousemgmt/cloneOpenHouse/${oh.id}`, { token: listing.token })
    expect(copy.status).toBe(201)
    expect(copy.body.data).toMatchObject({
      rePropertyId: oh.rePropertyId,
      scheduledDate: null,
      published: false,
    })
    expect(copy.body.data.id).not.toBe(oh.id)
    const auto = await scheduleOpenHouse(t, listing, { autoCloneOpenHouseFlag: 'true' })
    expect(
      (await t.call('POST', `/openhousemgmt/cloneOpenHouse/${auto.id}`, { token: listing.token })).status,
    ).toBe(409)
  })

  it('lists upcoming soonest first and offers a calendar file to the host', async () => {
    const listing = await agent()
    const later = await scheduleOpenHouse(t, listing, { scheduledDate: daysFromNow(6) })
    const sooner = await scheduleOpenHouse(t, listing, { scheduledDate: daysFromNow(2) })
    const list = await t.call('GET', `/openhousemgmt/getMyUpcomingOH/${listing.agent.id}`, {
      token: listing.token,
    })
    const ids = list.body.data.map((o: { id: number }) => o.id)
    expect(ids.indexOf(sooner.id)).toBeLessThan(ids.indexOf(later.id))
    const ics = await fetch(`${t.url}/api/openhousemgmt/calendar/${sooner.id}`, {
      headers: { authorization: `Bearer ${listing.token}` },
    })
    expect(ics.headers.get('content-type')).toContain('text/calendar')
    const text = await ics.text()
    expect(text).toContain('BEGIN:VEVENT')
    expect(text).toContain('Lantern Way')
  })

  it('moves an open house to Past when it ends, by its own end time, not by the calendar day', async () => {
    const listing = await agent()
    const other = await agent()
    const ended = await scheduleOpenHouse(t, listing)
    const running = await scheduleOpenHouse(t, listing)
    await publish(t, listing, ended.id)
    await publish(t, listing, running.id)
    // Both are today where the database is; one ended an hour ago, the other ends in two hours.
    const hour = 60 * 60 * 1000
    const today = new Date().toISOString().slice(0, 10)
    const at = (id: number, start: number, end: number) =>
      t.db
        .updateTable('openHouse')
        .set({
          scheduledDate: today,
          startsAt: new Date(Date.now() + start),
          endsAt: new Date(Date.now() + end),
        })
        .where('id', '=', id)
        .execute()
    await at(ended.id, -3 * hour, -hour)
    await at(running.id, -hour, 2 * hour)
    const ids = async (list: string, who: Awaited<ReturnType<typeof agent>>) =>
      (await t.call('GET', `/openhousemgmt/${list}/${who.agent.id}`, { token: who.token })).body.data.map(
        (o: { id: number }) => o.id,
      )
    const upcoming = await ids('getMyUpcomingOH', listing)
    const past = await ids('getMyPastOH', listing)
    expect(upcoming).toContain(running.id)
    expect(upcoming).not.toContain(ended.id)
    expect(past).toContain(ended.id)
    expect(past).not.toContain(running.id)
    const offered = await ids('getAvailableToHostOH', other)
    expect(offered).toContain(running.id)
    expect(offered).not.toContain(ended.id)
  })

  it('refuses an edit made on a version that changed since it was opened (409), and keeps the claim', async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await scheduleOpenHouse(t, listing)
    await publish(t, listing, oh.id)
    const opened = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, {
      token: listing.token,
    })
    const loaded = opened.body.data
    expect((await claim(oh, host)).status).toBe(200)

    const body = scheduleFields(oh.rePropertyId, { openHouseInstructions: 'Ring twice.' })
    const edit = (version?: string) =>
      fetch(`${t.url}/api/openhousemgmt/saveOpenHouse/${oh.id}`, {
        method: 'PATCH',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${listing.token}`,
          ...(version ? { 'if-match': `"${version}"` } : {}),
        },
        body: JSON.stringify(body),
      })
    const stale = await edit(loaded.updatedDate)
    expect(stale.status).toBe(409)
    expect(await stale.json()).toEqual({
      error: { code: 'STALE', message: 'This open house changed since you opened it' },
    })
    const now = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: listing.token })
    expect(now.body.data.hostingREAgentId).toBe(host.agent.id)
    expect(now.body.data.openHouseInstructions).toBe(loaded.openHouseInstructions)

    const fresh = await edit(now.body.data.updatedDate)
    expect(fresh.status).toBe(200)
    const saved = (await fresh.json()).data
    expect(saved.openHouseInstructions).toBe('Ring twice.')
    expect(saved.hostingREAgentId).toBe(host.agent.id)
  })

  it('shows a late claimer who won, but nobody the open house was never offered to', async () => {
    const listing = await agent({ brokerFirmLicense: 'FIRM-LATE' })
    const winner = await agent({ brokerFirmLicense: 'FIRM-LATE' })
    const late = await agent({ brokerFirmLicense: 'FIRM-LATE' })
    const stranger = await agent({ brokerFirmLicense: 'FIRM-STRANGER' })
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Market Center' })
    await publish(t, listing, oh.id, 'Market Center')
    await claim(oh, winner)
    const seen = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: late.token })
    expect(seen.body.data).toMatchObject({
      status: 'Hosted',
      hostingREAgentName: `Avery ${winner.agent.reAgentLastName}`,
    })
    expect(
      (await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: stranger.token })).status,
    ).toBe(404)
  })

  it('shows the public page no contact data, and only while the open house is on show', async () => {
    const listing = await agent()
    const oh = await scheduleOpenHouse(t, listing)
    expect((await t.call('GET', `/public/getOpenHouseDetails/${oh.id}`)).status).toBe(404)
    expect((await t.call('GET', `/public/getREPropertyDetails/${oh.rePropertyId}`)).status).toBe(404)
    await publish(t, listing, oh.id)
    expect((await t.call('GET', `/public/getREPropertyDetails/${oh.rePropertyId}`)).status).toBe(200)
    const res = await t.call('GET', `/public/getOpenHouseDetails/${oh.id}`)
    expect(res.status).toBe(200)
    const text = JSON.stringify(res.body)
    expect(text).not.toContain('@example.com')
    expect(text).not.toContain('4045550100')
  })
})
