import {
  ADDRESS_LOCKED_REASON,
  CANADIAN_POSTAL_CODE_NOT_VALID,
  messages,
  UPCOMING_OPEN_HOUSE_REASON,
  US_ZIP_NOT_VALID,
  ZIP_CODE_REQUIRED,
  ZIP_PLUS4_NOT_VALID,
  ZIP_PLUS4_US_ONLY,
} from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { daysFromNow, makePlannedAgent, propertyFields, scheduleFields } from '../support/factories.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const agent = () => makePlannedAgent(t.db)
const problems = (body: { errors?: Array<{ field: string; message: string }> }) =>
  Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]))

function addProperty(owner: Agent, property: Record<string, unknown> = {}) {
  return t.call('POST', '/reinventorymgmt/saveREInventory', {
    token: owner.token,
    body: {
      owningREAgentId: owner.agent.id,
      rePropertyDTO: propertyFields(property),
      reInventoryPropertyStatus: 'Property Created',
    },
  })
}

async function item(owner: Agent) {
  const res = await addProperty(owner)
  if (res.status !== 201) throw new Error(JSON.stringify(res.body))
  return res.body.data as { id: number; reProperty: { id: number } }
}

function schedule(owner: Agent, it: { id: number; reProperty: { id: number } }, overrides = {}) {
  return t.call('POST', '/openhousemgmt/saveOpenHouse', {
    token: owner.token,
    body: scheduleFields(it.reProperty.id, { reInventoryId: it.id, ...overrides }),
  })
}

const details = async (owner: Agent, id: number) =>
  (await t.call('GET', `/reinventorymgmt/getREInventoryDetails/${id}`, { token: owner.token })).body.data

const remove = (owner: Agent, id: number) =>
  t.call('DELETE', `/reinventorymgmt/deleteREInventory/${id}`, { token: owner.token })

describe('zip and postal codes', () => {
  it('takes a US zip of 5 digits from 10000 to 99999 with an optional 4-digit Zip+4', async () => {
    const owner = await agent()
    const res = await addProperty(owner, { propertyZipCode: 30075, propertyZipPlus4: '1234' })
    expect(res.status).toBe(201)
    expect(res.body.data.reProperty).toMatchObject({ propertyZipCode: '30075', propertyZipPlus4: '1234' })
    expect(res.body.data.reProperty.completePropertyAddress).toMatch(/Georgia 30075-1234, United States$/)
  })

  it.each([
    ['123456', US_ZIP_NOT_VALID],
    ['09999', US_ZIP_NOT_VALID],
    ['3007', US_ZIP_NOT_VALID],
    ['K1A 0B1', US_ZIP_NOT_VALID],
    ['', ZIP_CODE_REQUIRED],
  ])('refuses the US zip %j and says what is wrong', async (zip, message) => {
    const res = await addProperty(await agent(), { propertyZipCode: zip })
    expect(res.status).toBe(422)
    expect(problems(res.body)).toEqual({ 'rePropertyDTO.propertyZipCode': message })
  })

  it('takes a Canadian postal code A1A 1A1, written with its space in capitals, and a province', async () => {
    const res = await addProperty(await agent(), {
      propertyZipCode: 'k1a0b1',
      propertyState: 'Ontario',
      propertyCountry: 'Canada',
    })
    expect(res.status).toBe(201)
    expect(res.body.data.reProperty).toMatchObject({ propertyZipCode: 'K1A 0B1', propertyState: 'Ontario' })
  })

  it('refuses a US zip or a Zip+4 on a Canadian address', async () => {
    const res = await addProperty(await agent(), {
      propertyZipCode: '30075',
      propertyZipPlus4: '1234',
      propertyState: 'Ontario',
      propertyCountry: 'Canada',
    })
    expect(res.status).toBe(422)
    expect(problems(res.body)).toEqual({
      'rePropertyDTO.propertyZipCode': CANADIAN_POSTAL_CODE_NOT_VALID,
      'rePropertyDTO.propertyZipPlus4': ZIP_PLUS4_US_ONLY,
    })
  })

  it('refuses a Zip+4 that is not 4 digits, and a state not on the country list', async () => {
    const res = await addProperty(await agent(), { propertyZipPlus4: '12a', propertyState: 'Ontario' })
    expect(res.status).toBe(422)
    expect(problems(res.body)).toEqual({
      'rePropertyDTO.propertyZipPlus4': ZIP_PLUS4_NOT_VALID,
      'rePropertyDTO.propertyState': 'Choose a US state',
    })
  })
})

describe('the open-house status of an inventory item', () => {
  it('reads Property Created, then Open House Scheduled while an open house is upcoming, then Property Created once it is canceled', async () => {
    const owner = await agent()
    const added = await item(owner)
    expect((await details(owner, added.id)).reInventoryOpenHouseStatus).toBe('Property Created')
    const oh = await schedule(owner, added)
    expect(oh.status).toBe(201)
    expect((await details(owner, added.id)).reInventoryOpenHouseStatus).toBe('Open House Scheduled')
    const list = await t.call(
      'GET',
      `/reinventorymgmt/getOHEligibleREInventoryByOwningREAgentId/${owner.agent.id}`,
      { token: owner.token },
    )
    expect(list.body.data[0].reInventoryOpenHouseStatus).toBe('Open House Scheduled')

    const canceled = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: owner.token,
      body: { openHouseId: oh.body.data.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(canceled.status).toBe(200)
    expect((await details(owner, added.id)).reInventoryOpenHouseStatus).toBe('Property Created')
  })

  it('refuses delete while an open house is upcoming, takes another day but not the same date, and allows delete once all are over', async () => {
    const owner = await agent()
    const added = await item(owner)
    const oh = await schedule(owner, added)
    expect(oh.status).toBe(201)

    const deleted = await remove(owner, added.id)
    expect(deleted.status).toBe(409)
    expect(deleted.body.error).toEqual({ code: 'INVALID_STATE', message: UPCOMING_OPEN_HOUSE_REASON })

    // Another day: a second open house to come on the same item (issue 32, a weekend).
    const again = await schedule(owner, added, {
      scheduledDate: daysFromNow(12),
      openHousePreparationDate: daysFromNow(11),
    })
    expect(again.status).toBe(201)
    // The same date again, found through the property without the inventory id: SPEC's refusal.
    const byProperty = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: owner.token,
      body: scheduleFields(added.reProperty.id),
    })
    expect(byProperty.status).toBe(409)
    expect(byProperty.body.error).toEqual({
      code: 'OPEN_HOUSE_ALREADY_SCHEDULED',
      message: messages.openHouseAlreadyScheduled,
    })
    const canceled = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: owner.token,
      body: { openHouseId: again.body.data.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(canceled.status).toBe(200)

    // The open house passes: nothing is written, the status reads from the open houses.
    const yesterday = new Date(Date.now() - 86_400_000)
    await t.db
      .updateTable('openHouse')
      .set({ scheduledDate: yesterday.toISOString().slice(0, 10), startsAt: yesterday, endsAt: yesterday })
      .where('id', '=', oh.body.data.id)
      .execute()
    expect((await details(owner, added.id)).reInventoryOpenHouseStatus).toBe('Property Created')
    expect((await remove(owner, added.id)).status).toBe(200)
  })
})

describe('correcting the address', () => {
  it('changes the address fields under the same rules while no open house is scheduled', async () => {
    const owner = await agent()
    const added = await item(owner)
    const bad = await t.call('PATCH', `/reinventorymgmt/saveREInventory/${added.id}`, {
      token: owner.token,
      body: { reInventoryPropertyStatus: 'Property Created', rePropertyDTO: { propertyZipCode: '123456' } },
    })
    expect(bad.status).toBe(422)
    expect(problems(bad.body)).toEqual({ 'rePropertyDTO.propertyZipCode': US_ZIP_NOT_VALID })

    const res = await t.call('PATCH', `/reinventorymgmt/saveREInventory/${added.id}`, {
      token: owner.token,
      body: {
        reInventoryPropertyStatus: 'Active',
        rePropertyDTO: propertyFields({ propertyAddress1: '12 Porch Lane', propertyZipCode: '30075' }),
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.reInventoryPropertyStatus).toBe('Active')
    expect(res.body.data.reProperty.completePropertyAddress).toBe(
      '12 Porch Lane, Alpharetta, Georgia 30075, United States',
    )
  })

  it('refuses an address change once an open house is scheduled, but still takes the status', async () => {
    const owner = await agent()
    const added = await item(owner)
    expect((await schedule(owner, added)).status).toBe(201)
    const res = await t.call('PATCH', `/reinventorymgmt/saveREInventory/${added.id}`, {
      token: owner.token,
      body: { reInventoryPropertyStatus: 'Property Created', rePropertyDTO: { propertyCity: 'Roswell' } },
    })
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'INVALID_STATE', message: ADDRESS_LOCKED_REASON })

    const status = await t.call('PATCH', `/reinventorymgmt/saveREInventory/${added.id}`, {
      token: owner.token,
      body: { reInventoryPropertyStatus: 'Coming Soon' },
    })
    expect(status.status).toBe(200)
    expect(status.body.data.reInventoryPropertyStatus).toBe('Coming Soon')
    expect(status.body.data.reProperty.propertyCity).toBe('Alpharetta')
  })
})
