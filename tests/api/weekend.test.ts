// Issue 32 "a weekend": several open houses to come on one property, one per property and date, times
// in 15-minute steps, "Add another day" and a clone that knows it is a copy.
import { messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { daysFromNow, makePlannedAgent, propertyFields, scheduleFields } from '../support/factories.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

async function inventory(owner: Agent) {
  const res = await t.call('POST', '/reinventorymgmt/saveREInventory', {
    token: owner.token,
    body: {
      owningREAgentId: owner.agent.id,
      rePropertyDTO: propertyFields(),
      reInventoryPropertyStatus: 'Property Created',
    },
  })
  if (res.status !== 201) throw new Error(JSON.stringify(res.body))
  return res.body.data as { id: number; reProperty: { id: number } }
}

const save = (owner: Agent, item: { id: number; reProperty: { id: number } }, over = {}) =>
  t.call('POST', '/openhousemgmt/saveOpenHouse', {
    token: owner.token,
    body: scheduleFields(item.reProperty.id, { reInventoryId: item.id, ...over }),
  })

/** The next Saturday at least three days away, and the Sunday after it. */
function weekend(): [string, string] {
  let days = 3
  while (new Date(`${daysFromNow(days)}T12:00:00Z`).getUTCDay() !== 6) days++
  return [daysFromNow(days), daysFromNow(days + 1)]
}

describe('a weekend on one property', () => {
  it('takes Saturday and Sunday (201 both), and refuses the same date twice with the SPEC text', async () => {
    const owner = await makePlannedAgent(t.db)
    const item = await inventory(owner)
    const [saturday, sunday] = weekend()
    const sat = await save(owner, item, { scheduledDate: saturday })
    const sun = await save(owner, item, { scheduledDate: sunday })
    expect(sat.status).toBe(201)
    expect(sun.status).toBe(201)
    expect([sat.body.data.scheduledDate, sun.body.data.scheduledDate]).toEqual([saturday, sunday])

    const again = await save(owner, item, { scheduledDate: sunday, scheduledStartTime: '9:00 AM' })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({
      error: { code: 'OPEN_HOUSE_ALREADY_SCHEDULED', message: messages.openHouseAlreadyScheduled },
    })

    // A canceled Sunday frees the date.
    const canceled = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: owner.token,
      body: { openHouseId: sun.body.data.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(canceled.status).toBe(200)
    expect((await save(owner, item, { scheduledDate: sunday })).status).toBe(201)
  })

  it('makes one open house of ten simultaneous saves of one date; the others hear the SPEC text', async () => {
    const owner = await makePlannedAgent(t.db)
    const item = await inventory(owner)
    const date = daysFromNow(9)
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => save(owner, item, { scheduledDate: date })),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)])
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body.error.message).toBe(messages.openHouseAlreadyScheduled)
    }
    const rows = await t.db
      .selectFrom('openHouse')
      .select('id')
      .where('rePropertyId', '=', item.reProperty.id)
      .where('scheduledDate', '=', date)
      .execute()
    expect(rows).toHaveLength(1)
  })
})

describe('times in 15-minute steps', () => {
  it('accepts a :30 start and a :45 end, and keeps the hourly labels valid', async () => {
    const owner = await makePlannedAgent(t.db)
    const item = await inventory(owner)
    const date = daysFromNow(5)
    const res = await save(owner, item, {
      scheduledDate: date,
      scheduledStartTime: '1:30 PM',
      scheduledEndTime: '4:45 PM',
      openHouseTimezone: 'America/New_York',
    })
    expect(res.status).toBe(201)
    expect(res.body.data.scheduledStartTime).toBe('1:30 PM')
    // 1:30 PM and 4:45 PM in New York on that date, whatever its offset.
    const local = (iso: string) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/New_York',
        hour: 'numeric',
        minute: '2-digit',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(new Date(iso))
    const [y, m, d] = date.split('-')
    expect(local(res.body.data.startsAt)).toBe(`${m}/${d}/${y}, 1:30 PM`)
    expect(local(res.body.data.endsAt)).toBe(`${m}/${d}/${y}, 4:45 PM`)

    const hourly = await save(owner, item, { scheduledDate: daysFromNow(6), scheduledStartTime: '12:00 PM' })
    expect(hourly.status).toBe(201)
    const bad = await save(owner, item, { scheduledDate: daysFromNow(7), scheduledStartTime: '1:20 PM' })
    expect(bad.status).toBe(422)
    const backwards = await save(owner, item, {
      scheduledDate: daysFromNow(8),
      scheduledStartTime: '2:45 PM',
      scheduledEndTime: '2:30 PM',
    })
    expect(backwards.status).toBe(422)
  })
})

describe('Add another day', () => {
  it('copies the open house with the same times to the next free day of the property, not offered', async () => {
    const owner = await makePlannedAgent(t.db)
    const item = await inventory(owner)
    const [saturday, sunday] = weekend()
    const sat = await save(owner, item, {
      scheduledDate: saturday,
      scheduledStartTime: '1:30 PM',
      scheduledEndTime: '4:00 PM',
    })
    expect(sat.status).toBe(201)
    // Monday is already taken: Saturday's next day is Sunday, then Tuesday.
    const monday = new Date(`${sunday}T12:00:00Z`)
    monday.setUTCDate(monday.getUTCDate() + 1)
    const mondayIso = monday.toISOString().slice(0, 10)

    const another = await t.call('POST', `/openhousemgmt/addAnotherDay/${sat.body.data.id}`, {
      token: owner.token,
    })
    expect(another.status).toBe(201)
    expect(another.body.data).toMatchObject({
      rePropertyId: item.reProperty.id,
      scheduledDate: sunday,
      scheduledStartTime: '1:30 PM',
      scheduledEndTime: '4:00 PM',
      published: false,
      openHouseCanceledFlag: false,
    })
    expect(another.body.data.copyOf).toBeNull()

    expect((await save(owner, item, { scheduledDate: mondayIso })).status).toBe(201)
    const third = await t.call('POST', `/openhousemgmt/addAnotherDay/${sat.body.data.id}`, {
      token: owner.token,
    })
    expect(third.status).toBe(201)
    const tuesday = new Date(`${mondayIso}T12:00:00Z`)
    tuesday.setUTCDate(tuesday.getUTCDate() + 1)
    expect(third.body.data.scheduledDate).toBe(tuesday.toISOString().slice(0, 10))
  })

  it('is refused to an agent who may not clone the open house, with no copy made', async () => {
    const owner = await makePlannedAgent(t.db)
    const stranger = await makePlannedAgent(t.db)
    const item = await inventory(owner)
    const oh = await save(owner, item)
    const res = await t.call('POST', `/openhousemgmt/addAnotherDay/${oh.body.data.id}`, {
      token: stranger.token,
    })
    expect(res.status).toBe(404)
    const rows = await t.db
      .selectFrom('openHouse')
      .select('id')
      .where('rePropertyId', '=', item.reProperty.id)
      .execute()
    expect(rows).toHaveLength(1)
  })
})

describe('Clone', () => {
  it('says the copy is a copy, and of which day', async () => {
    const owner = await makePlannedAgent(t.db)
    const item = await inventory(owner)
    const date = daysFromNow(4)
    const oh = await save(owner, item, { scheduledDate: date })
    const copy = await t.call('POST', `/openhousemgmt/cloneOpenHouse/${oh.body.data.id}`, {
      token: owner.token,
    })
    expect(copy.status).toBe(201)
    expect(copy.body.data.copyOf).toEqual({ id: oh.body.data.id, scheduledDate: date })
    const read = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${copy.body.data.id}`, {
      token: owner.token,
    })
    expect(read.body.data.copyOf).toEqual({ id: oh.body.data.id, scheduledDate: date })
    const original = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.body.data.id}`, {
      token: owner.token,
    })
    expect(original.body.data.copyOf).toBeNull()
  })
})
