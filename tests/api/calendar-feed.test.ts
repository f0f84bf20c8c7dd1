import ICAL from 'ical.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, scheduleFields } from '../support/factories.ts'
import { scheduleHostedBy, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t?.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

const feedUrl = async (who: Agent) => {
  const res = await t.call('GET', `/openhousemgmt/getCalendarFeedUrl/${who.agent.id}`, { token: who.token })
  expect(res.status).toBe(200)
  return res.body.data.url as string
}

/** The feed as a calendar app reads it: fetched without a token, parsed by a real iCalendar parser. */
async function readFeed(url: string) {
  const res = await fetch(url)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
  const calendar = new ICAL.Component(ICAL.parse(await res.text()))
  expect(calendar.name).toBe('vcalendar')
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0')
  const events = new Map(
    calendar.getAllSubcomponents('vevent').map((v) => {
      const e = new ICAL.Event(v)
      const value = (name: string) => v.getFirstPropertyValue(name)
      return [
        e.uid,
        {
          start: e.startDate.toJSDate().toISOString(),
          end: e.endDate.toJSDate().toISOString(),
          sequence: e.sequence,
          status: value('status'),
          summary: e.summary,
          location: e.location,
          lastModified: (value('last-modified') as ICAL.Time).toJSDate().getTime(),
          stamp: (value('dtstamp') as ICAL.Time).toJSDate().getTime(),
        },
      ] as const
    }),
  )
  return events
}

const uid = (id: number) => `open-house-${id}@porchlight`

describe('the calendar feed', () => {
  it('parses as iCalendar and changes when an open house is rescheduled', async () => {
    const agent = await makePlannedAgent(t.db)
    const other = await makePlannedAgent(t.db)
    // 1–3 PM in New York in January (EST, UTC−5).
    const listed = await scheduleOpenHouse(t, agent, {
      publishLevel: 'Hosting Myself',
      scheduledDate: '2031-01-15',
      scheduledStartTime: '1:00 PM',
      scheduledEndTime: '3:00 PM',
      openHouseTimezone: 'America/New_York',
    })
    const hosted = await scheduleHostedBy(t, other, agent)
    const canceled = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
    const cancel = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: agent.token,
      body: { openHouseId: canceled.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    expect(cancel.status).toBe(200)
    const flexible = await scheduleOpenHouse(t, agent, {
      scheduledDate: null,
      scheduledStartTime: 'Choose Your Own (Flexi Time)',
      scheduledEndTime: 'Choose Your Own (Flexi Time)',
    })
    const notMine = await scheduleOpenHouse(t, other, { publishLevel: 'Hosting Myself' })

    const url = await feedUrl(agent)
    expect(url).toMatch(new RegExp(`^${t.url}/api/public/calendar/[\\w-]{43}\\.ics$`))
    expect(await feedUrl(agent)).toBe(url)

    const before = await readFeed(url)
    expect([...before.keys()].sort()).toEqual([uid(listed.id), uid(hosted.id), uid(canceled.id)].sort())
    expect(before.has(uid(flexible.id))).toBe(false)
    expect(before.has(uid(notMine.id))).toBe(false)
    const first = before.get(uid(listed.id))
    expect(first).toMatchObject({
      start: '2031-01-15T18:00:00.000Z',
      end: '2031-01-15T20:00:00.000Z',
      status: 'CONFIRMED',
      summary: expect.stringContaining('Lantern Way'),
      location: expect.stringContaining('Alpharetta'),
    })
    expect(before.get(uid(canceled.id))?.status).toBe('CANCELLED')
    expect(before.get(uid(hosted.id))?.summary).toMatch(/^Hosting: /)
    // An unchanged feed reads the same: DTSTAMP is the last change, not the time of the request.
    expect(await readFeed(url)).toEqual(before)

    // SEQUENCE counts whole seconds of the last change (as LAST-MODIFIED reads them): the reschedule
    // comes, as an agent's would, later than the second the open house was saved in.
    await t.db
      .updateTable('openHouse')
      .set({ updatedDate: new Date(Date.now() - 60_000) })
      .where('id', '=', listed.id)
      .execute()
    const stale = (await readFeed(url)).get(uid(listed.id))

    // Rescheduled to 10 AM–12 PM in July (EDT, UTC−4).
    const property = (
      await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${listed.id}`, { token: agent.token })
    ).body.data.reProperty.id
    const moved = await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${listed.id}`, {
      token: agent.token,
      body: scheduleFields(property, {
        publishLevel: 'Hosting Myself',
        scheduledDate: '2031-07-15',
        scheduledStartTime: '10:00 AM',
        scheduledEndTime: '12:00 PM',
        openHouseTimezone: 'America/New_York',
      }),
    })
    expect(moved.status).toBe(200)

    const after = await readFeed(url)
    const second = after.get(uid(listed.id))
    expect(second).toMatchObject({ start: '2031-07-15T14:00:00.000Z', end: '2031-07-15T16:00:00.000Z' })
    expect(second?.sequence).toBeGreaterThan(stale?.sequence ?? Number.POSITIVE_INFINITY)
    expect(second?.lastModified).toBeGreaterThan(stale?.lastModified ?? Number.POSITIVE_INFINITY)
    expect(after.get(uid(hosted.id))).toEqual(before.get(uid(hosted.id)))
  })

  it('is revocable: the old address answers 404 and the next one is new', async () => {
    const agent = await makePlannedAgent(t.db)
    const url = await feedUrl(agent)
    const revoked = await t.call('DELETE', `/openhousemgmt/revokeCalendarFeed/${agent.agent.id}`, {
      token: agent.token,
    })
    expect(revoked.body.data).toEqual({ revoked: true })
    const gone = await fetch(url)
    expect(gone.status).toBe(404)
    expect((await gone.json()).error.code).toBe('NOT_FOUND')
    const fresh = await feedUrl(agent)
    expect(fresh).not.toBe(url)
    expect((await fetch(fresh)).status).toBe(200)
  })

  it("is the agent's own: another agent's id is 403, no token is 403", async () => {
    const agent = await makePlannedAgent(t.db)
    const other = await makePlannedAgent(t.db)
    const asOther = await t.call('GET', `/openhousemgmt/getCalendarFeedUrl/${agent.agent.id}`, {
      token: other.token,
    })
    expect(asOther.status).toBe(403)
    expect(asOther.body.error.code).toBe('FORBIDDEN')
    const revoke = await t.call('DELETE', `/openhousemgmt/revokeCalendarFeed/${agent.agent.id}`, {
      token: other.token,
    })
    expect(revoke.status).toBe(403)
    expect((await t.call('GET', `/openhousemgmt/getCalendarFeedUrl/${agent.agent.id}`)).status).toBe(403)
    expect(
      (await fetch(`${t.url}/api/public/calendar/not-a-real-token-but-well-formed-00000.ics`)).status,
    ).toBe(404)
  })
})
