import { FEEDBACK_RATING_FIELDS, messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// Issue 37 N3: knowing a visitor's email was enough to act as that visitor. A sign-in with a known email
// answered the existing prospect's id and a token bound to it, and with it an anonymous caller rewrote a
// real visitor's "Great house" 5/5 into "TERRIBLE, avoid" 1/1; the answer also told whether the email
// had visited. Every sign-in is now a visit of its own, and its token opens that visit only (decision 029).

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const agent = () => makePlannedAgent(t.db)
const NA = Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, '']))

interface SignedIn {
  id: number
  guestToken: string
}

async function signIn(openHouseId: number, overrides: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/public/saveProspect', { body: guestFields(openHouseId, overrides) })
  expect(res.status).toBe(201)
  return res.body.data as SignedIn
}

const feedbackBody = (openHouseId: number, visitor: SignedIn, rating: number, text: string) => ({
  openHouseId,
  prospectId: visitor.id,
  guestToken: visitor.guestToken,
  ...NA,
  overallExperience: rating,
  homeCondition: rating,
  feedbackText: text,
})

const feedbackRows = (openHouseId: number) =>
  t.db
    .selectFrom('openHouseFeedback')
    .select(['id', 'prospectId', 'attendeeId', 'overallExperience', 'homeCondition', 'feedbackText'])
    .where('openHouseId', '=', openHouseId)
    .orderBy('id')
    .execute()

const visitsOf = (openHouseId: number) =>
  t.db
    .selectFrom('openHouseAttendee')
    .select(['id', 'prospectId'])
    .where('openHouseId', '=', openHouseId)
    .orderBy('id')
    .execute()

async function hostedOpenHouse(listing: Agent) {
  return scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
}

describe('an email is not an identity', () => {
  it("refuses the audit's rewrite: a stranger who types a visitor's email gets a visit of its own and cannot touch the visitor's 5/5", async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const email = `robin-${Date.now()}@example.com`
    const robin = await signIn(oh.id, { prospectFirstName: 'Robin', prospectEmailId: email })
    const given = await t.call('POST', '/public/saveOpenHouseFeedback', {
      body: feedbackBody(oh.id, robin, 5, 'Great house'),
    })
    expect(given.status).toBe(201)
    const robinFeedbackId: number = given.body.data.id

    // The stranger knows only the email (any case) and the open house on the door sign.
    const stranger = await signIn(oh.id, {
      prospectFirstName: 'Mallory',
      prospectEmailId: email.toUpperCase(),
    })
    expect(stranger.id).not.toBe(robin.id)
    const [prospect] = await t.db
      .selectFrom('prospect')
      .select('id')
      .where('createdByReAgentId', '=', listing.agent.id)
      .execute()
    // Its answer is the new visit's id: a visit of Robin's prospect, not Robin's visit nor the prospect.
    const visits = await visitsOf(oh.id)
    expect(visits).toEqual([
      { id: robin.id, prospectId: prospect?.id },
      { id: stranger.id, prospectId: prospect?.id },
    ])

    // The rewrite as measured, and every id it could name: the first visit's, the prospect's.
    const rewrite = (prospectId: number) =>
      t.call('PATCH', `/feedback/saveOpenHouseFeedback/${robinFeedbackId}`, {
        body: { ...feedbackBody(oh.id, stranger, 1, 'TERRIBLE, avoid'), prospectId },
      })
    const attempts = [
      await rewrite(stranger.id),
      await rewrite(robin.id),
      await rewrite(prospect?.id ?? 0),
      // A second feedback "as Robin" on Robin's visit.
      await t.call('POST', '/public/saveOpenHouseFeedback', {
        body: { ...feedbackBody(oh.id, stranger, 1, 'TERRIBLE, avoid'), prospectId: robin.id },
      }),
    ]
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404])
    for (const a of attempts) {
      expect(a.body.error).toEqual({ code: 'NOT_FOUND', message: messages.feedbackSaveFailed })
    }
    const [kept] = await feedbackRows(oh.id)
    expect(kept).toMatchObject({
      id: robinFeedbackId,
      overallExperience: 5,
      homeCondition: 5,
      feedbackText: 'Great house',
    })

    // What the stranger may do is give feedback on its own visit: a row of its own, Robin's untouched.
    const own = await t.call('POST', '/public/saveOpenHouseFeedback', {
      body: feedbackBody(oh.id, stranger, 1, 'TERRIBLE, avoid'),
    })
    expect(own.status).toBe(201)
    // Its answer names its own visit, never the prospect behind it.
    expect(own.body.data.prospectId).toBe(stranger.id)
    const rows = await feedbackRows(oh.id)
    expect(rows.map((r) => [r.attendeeId, r.overallExperience, r.feedbackText])).toEqual([
      [robin.id, 5, 'Great house'],
      [stranger.id, 1, 'TERRIBLE, avoid'],
    ])
    // Robin's own token still edits Robin's feedback, and only it.
    const robinEdits = await t.call('PATCH', `/feedback/saveOpenHouseFeedback/${robinFeedbackId}`, {
      body: feedbackBody(oh.id, robin, 4, 'Great house, small yard'),
    })
    expect(robinEdits.status).toBe(200)
    expect(robinEdits.body.data).toMatchObject({
      id: robinFeedbackId,
      prospectId: robin.id,
      overallExperience: 4,
    })
    const strangerRow = rows[1]?.id ?? 0
    const robinOnStrangers = await t.call('PATCH', `/feedback/saveOpenHouseFeedback/${strangerRow}`, {
      body: feedbackBody(oh.id, robin, 5, 'Fine'),
    })
    expect(robinOnStrangers.status).toBe(404)
  })

  it('answers a known and an unknown email alike: same status, same keys, a fresh visit id, never the prospect id', async () => {
    const listing = await agent()
    const first = await hostedOpenHouse(listing)
    const second = await hostedOpenHouse(listing)
    const email = `sam-${Date.now()}@example.com`
    const earlier = await signIn(first.id, { prospectEmailId: email })
    const [prospect] = await t.db
      .selectFrom('prospect')
      .select('id')
      .where('createdByReAgentId', '=', listing.agent.id)
      .execute()

    const known = await t.call('POST', '/public/saveProspect', {
      body: guestFields(second.id, { prospectEmailId: email }),
    })
    const unknown = await t.call('POST', '/public/saveProspect', { body: guestFields(second.id) })
    for (const res of [known, unknown]) {
      expect(res.status).toBe(201)
      expect(Object.keys(res.body)).toEqual(['data'])
      expect(Object.keys(res.body.data)).toEqual(['id', 'guestToken'])
      expect(res.body.data.guestToken).toMatch(/^[\w-]{43}$/)
    }
    // Each answers the visit it made, at the open house it was made at.
    const visits = await visitsOf(second.id)
    expect(visits.map((v) => v.id)).toEqual([known.body.data.id, unknown.body.data.id])
    expect(visits[0]?.prospectId).toBe(prospect?.id)
    expect(known.body.data.id).not.toBe(earlier.id)
    // The answers differ in their values only: the same length but for the digits of the id.
    const shape = (res: { body: { data: SignedIn } }) =>
      JSON.stringify({ ...res.body.data, id: 0, guestToken: '' })
    expect(shape(known)).toBe(shape(unknown))
  })

  it("names each visit on the public list as the guest typed it, never the agent's record of that email", async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const email = `ari-${Date.now()}@example.com`
    await signIn(oh.id, { prospectFirstName: 'Ari', prospectLastName: 'Stone', prospectEmailId: email })
    await signIn(oh.id, { prospectFirstName: 'Mallory', prospectLastName: 'Probe', prospectEmailId: email })
    const list = await t.call('GET', `/public/getOpenHouseAttendees/${oh.id}`)
    expect(list.status).toBe(200)
    expect(list.body.data.map((a: { firstName: string; lastInitial: string }) => a.firstName)).toEqual([
      'Mallory',
      'Ari',
    ])
  })

  it('shows the agent one prospect (matched by email) with both visits', async () => {
    const listing = await agent()
    const first = await hostedOpenHouse(listing)
    const second = await hostedOpenHouse(listing)
    const email = `lee-${Date.now()}@example.com`
    const one = await signIn(first.id, { prospectFirstName: 'Lee', prospectEmailId: email })
    const two = await signIn(second.id, { prospectFirstName: 'Lee', prospectEmailId: email })
    const three = await signIn(second.id, { prospectFirstName: 'Lee', prospectEmailId: email })

    const own = await t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${listing.agent.id}`, {
      token: listing.token,
    })
    expect(own.status).toBe(200)
    const mine = own.body.data.filter((p: { prospectEmailId: string }) => p.prospectEmailId === email)
    expect(mine).toHaveLength(1)
    const prospectId: number = mine[0].id

    const atFirst = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${first.id}`, {
      token: listing.token,
    })
    const atSecond = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${second.id}`, {
      token: listing.token,
    })
    const visits = (res: { body: { data: Array<{ id: number; attendeeId: number }> } }) =>
      res.body.data.map((p) => [p.id, p.attendeeId]).sort()
    expect(visits(atFirst)).toEqual([[prospectId, one.id]])
    expect(visits(atSecond)).toEqual(
      [
        [prospectId, two.id],
        [prospectId, three.id],
      ].sort(),
    )
    // It is still one visitor in the agent's statistics.
    const stats = await t.call(
      'GET',
      `/openhousemgmt/getOHStatisticsSummaryByREAgentId/${listing.agent.id}`,
      {
        token: listing.token,
      },
    )
    expect(stats.body.data.totalVisitedProspects).toBe(1)
  })

  it('keeps an agent-added attendee once, also when the prospect already signed in there as a guest', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const email = `kim-${Date.now()}@example.com`
    await signIn(oh.id, { prospectEmailId: email })
    const [prospect] = await t.db
      .selectFrom('prospect')
      .select('id')
      .where('createdByReAgentId', '=', listing.agent.id)
      .execute()
    const add = () =>
      t.call('POST', '/openhousemgmt/AddAttendee', {
        token: listing.token,
        body: { openHouseId: oh.id, prospectId: prospect?.id },
      })
    expect((await add()).status).toBe(409)
    const other = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: listing.token,
      body: {
        prospectFirstName: 'Pat',
        prospectLastName: 'Added',
        prospectEmailId: `pat-${Date.now()}@example.com`,
        prospectPhoneNumber: '404 555 0100',
      },
    })
    const addOther = () =>
      t.call('POST', '/openhousemgmt/AddAttendee', {
        token: listing.token,
        body: { openHouseId: oh.id, prospectId: other.body.data.id },
      })
    const both = await Promise.all([addOther(), addOther()])
    expect(both.map((r) => r.status).sort()).toEqual([201, 409])
    expect((await visitsOf(oh.id)).length).toBe(2)
  })
})

describe('kiosk hand-over', () => {
  it('gives two visitors signing in at once with one email a visit each, and each token only its own', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const email = `shared-${Date.now()}@example.com`
    // Visitor A's offline sign-in is sent as visitor B signs in on the same kiosk with the same email.
    const [a, b] = await Promise.all([
      signIn(oh.id, { prospectEmailId: email, kiosk: 'true', savedOffline: 'true' }),
      signIn(oh.id, { prospectEmailId: email, kiosk: 'true' }),
    ])
    expect(a.id).not.toBe(b.id)
    expect((await visitsOf(oh.id)).map((v) => v.id).sort()).toEqual([a.id, b.id].sort())

    const aGives = await t.call('POST', '/public/saveOpenHouseFeedback', {
      body: feedbackBody(oh.id, a, 5, 'Lovely light'),
    })
    expect(aGives.status).toBe(201)
    const asA = await Promise.all([
      t.call('PATCH', `/feedback/saveOpenHouseFeedback/${aGives.body.data.id}`, {
        body: { ...feedbackBody(oh.id, b, 1, 'as A'), prospectId: a.id },
      }),
      t.call('POST', '/public/saveOpenHouseFeedback', {
        body: { ...feedbackBody(oh.id, b, 1, 'as A'), prospectId: a.id },
      }),
    ])
    expect(asA.map((r) => r.status)).toEqual([404, 404])
    const rows = await feedbackRows(oh.id)
    expect(rows.map((r) => [r.attendeeId, r.feedbackText])).toEqual([[a.id, 'Lovely light']])
  })
})
