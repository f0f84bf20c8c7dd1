import { randomBytes, randomUUID } from 'node:crypto'
import { messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

// The per-address limit of the guest sign-in is 60 a minute: this file stays well below it but for
// the last describe, which has an app (and so a rate-limit prefix) of its own.

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const agent = () => makePlannedAgent(t.db)
const unique = () => randomBytes(4).toString('hex')
const fields = (body: { errors?: Array<{ field: string; message: string }> }) =>
  Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]))

const CONSENT = 'I agree that the listing agent may contact me by email about this and similar homes.'

function visitor(openHouseId: number, overrides: Record<string, unknown> = {}) {
  return {
    prospectFirstName: 'Jordan',
    prospectLastName: 'rivers',
    prospectEmailId: `jordan-${unique()}@example.com`,
    prospectPhoneNumber: '404 555 0142',
    prospectCity: 'Roswell',
    currentHouseStatus: 'Rent',
    homeBuyingTimelines: '1-3 Months',
    workingWithREAgentFlag: 'false',
    bestTimeToContact: 'Afteroon',
    heardAboutThisOpenHouse: 'Driving By',
    prospectNotification: 'Email',
    openHouseId,
    clientRequestId: randomUUID(),
    emailConsent: 'true',
    smsConsent: 'false',
    consentText: CONSENT,
    ...overrides,
  }
}

const signIn = (body: unknown) => t.call('POST', '/public/saveProspect', { body })

async function hostedOpenHouse(listing: Agent) {
  return scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
}

const prospectsOf = (agentId: number) =>
  t.db.selectFrom('prospect').selectAll().where('createdByReAgentId', '=', agentId).execute()
const attendeesOf = (openHouseId: number) =>
  t.db
    .selectFrom('openHouseAttendee')
    .selectAll()
    .where('openHouseId', '=', openHouseId)
    .orderBy('id')
    .execute()
/** The sign-in answers its visit's id (decision 029); the agent's prospect is behind it. */
const prospectOf = async (visitId: number) =>
  (
    await t.db
      .selectFrom('openHouseAttendee')
      .select('prospectId')
      .where('id', '=', visitId)
      .executeTakeFirstOrThrow()
  ).prospectId

describe('guest sign-in from the QR code', () => {
  it("makes the door agent's prospect, records the visit and the consent, and answers the visit's id and a guest token", async () => {
    const listing = await agent()
    const someoneElse = await agent()
    const oh = await hostedOpenHouse(listing)
    const body = visitor(oh.id, { reAgentId: someoneElse.agent.id, rePropertyId: oh.rePropertyId })
    const before = Date.now()
    const res = await signIn(body)
    expect(res.status).toBe(201)
    expect(Object.keys(res.body.data)).toEqual(['id', 'guestToken'])
    // At least 128 random bits.
    expect(Buffer.from(res.body.data.guestToken, 'base64url').length).toBeGreaterThanOrEqual(16)

    // The QR code's reAgentId is not trusted: the open house says whose lead this is.
    expect(await prospectsOf(someoneElse.agent.id)).toEqual([])
    const [prospect] = await prospectsOf(listing.agent.id)
    expect(prospect).toMatchObject({
      id: await prospectOf(res.body.data.id),
      prospectFirstName: 'Jordan',
      prospectEmailId: body.prospectEmailId,
      bestTimeToContact: 'Afteroon',
      heardAboutThisOpenHouse: 'Driving By',
      workingWithReAgentFlag: false,
      emailConsent: true,
      smsConsent: false,
      consentText: CONSENT,
    })
    expect(prospect?.consentAt?.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect((await attendeesOf(oh.id)).map((a) => [a.id, a.prospectId, a.clientRequestId])).toEqual([
      [res.body.data.id, prospect?.id, body.clientRequestId],
    ])
  })

  it('requires first name, last name, email and phone, with the SPEC email text', async () => {
    const oh = await hostedOpenHouse(await agent())
    const res = await signIn(
      visitor(oh.id, {
        prospectFirstName: ' ',
        prospectLastName: undefined,
        prospectEmailId: 'jordan@example',
        prospectPhoneNumber: undefined,
      }),
    )
    expect(res.status).toBe(422)
    expect(res.body.error.code).toBe('VALIDATION')
    expect(fields(res.body)).toEqual({
      prospectFirstName: 'First name is required',
      prospectLastName: 'Last name is required',
      prospectEmailId: messages.emailIdNotValid,
      prospectPhoneNumber: 'Phone number is required',
    })
    expect(await attendeesOf(oh.id)).toEqual([])
  })

  it("takes SPEC's option labels exactly ('Afteroon' included) and refuses others", async () => {
    const oh = await hostedOpenHouse(await agent())
    const res = await signIn(
      visitor(oh.id, {
        bestTimeToContact: 'Afternoon',
        currentHouseStatus: 'Lease',
        homeBuyingTimelines: '1-3 months',
        heardAboutThisOpenHouse: 'Billboard',
        prospectNotification: 'Phone',
      }),
    )
    expect(res.status).toBe(422)
    expect(fields(res.body)).toEqual({
      bestTimeToContact:
        'Best time to contact must be one of: Morning, Afteroon, Evening, Weekends, No Preference',
      currentHouseStatus: 'Current house status must be one of: Rent, Own, Other',
      homeBuyingTimelines:
        'Home buying timeline must be one of: Now, 1-3 Months, 3-6 Months, 6-9 Months, Just Exploring, Other',
      heardAboutThisOpenHouse:
        'Heard about this open house must be one of: Friend, Driving By, Signs, Online Website, Realtor Communication, Other',
      prospectNotification: 'Prospect notification must be one of: Email, SMS, Both',
    })

    // Optional fields may be left empty ('' as the form sends them).
    const blank = await signIn(
      visitor(oh.id, {
        bestTimeToContact: '',
        currentHouseStatus: null,
        homeBuyingTimelines: undefined,
        prospectZipCode: '',
        workingWithREAgentFlag: undefined,
      }),
    )
    expect(blank.status).toBe(201)
  })

  it('needs a UUID clientRequestId, an open house id, and the wording shown with any consent', async () => {
    const oh = await hostedOpenHouse(await agent())
    const res = await signIn(
      visitor(oh.id, {
        clientRequestId: 'retry-1',
        openHouseId: undefined,
        smsConsent: true,
        consentText: '',
      }),
    )
    expect(res.status).toBe(422)
    expect(Object.keys(fields(res.body)).sort()).toEqual(['clientRequestId', 'consentText', 'openHouseId'])
    expect(fields(res.body).clientRequestId).toBe('clientRequestId must be a UUID')

    // No consent given: no wording needed, no consent time recorded.
    const listing = await agent()
    const oh2 = await hostedOpenHouse(listing)
    const none = await signIn(visitor(oh2.id, { emailConsent: false, consentText: undefined }))
    expect(none.status).toBe(201)
    const [row] = await prospectsOf(listing.agent.id)
    expect(row).toMatchObject({ emailConsent: false, smsConsent: false, consentText: null, consentAt: null })
  })

  it('answers a retry with the same clientRequestId with the same visit, and records one attendee', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const body = visitor(oh.id)
    const first = await signIn(body)
    const again = await signIn(body)
    expect(first.status).toBe(201)
    expect(again.status).toBe(201)
    expect(again.body.data.id).toBe(first.body.data.id)
    expect(await prospectsOf(listing.agent.id)).toHaveLength(1)
    expect(await attendeesOf(oh.id)).toHaveLength(1)
  })

  it("binds each guest token to its visit's prospect and open house, and a deleted guest or open house takes its tokens along", async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const other = await hostedOpenHouse(listing)
    const body = visitor(oh.id)
    const first = await signIn(body)
    // A retry (the first answer lost) gets a token of its own for the same visit.
    await signIn(body)
    const kept = await signIn(visitor(other.id))
    const tokensOf = (openHouseId: number) =>
      t.db
        .selectFrom('guestToken as g')
        .innerJoin('openHouseAttendee as a', 'a.id', 'g.attendeeId')
        .select(['g.attendeeId', 'g.prospectId', 'g.openHouseId', 'a.prospectId as visitProspectId'])
        .where('a.openHouseId', '=', openHouseId)
        .execute()
    const tokens = await tokensOf(oh.id)
    expect(tokens).toHaveLength(2)
    for (const token of tokens) {
      expect(token).toEqual({
        attendeeId: first.body.data.id,
        prospectId: token.visitProspectId,
        openHouseId: oh.id,
        visitProspectId: await prospectOf(first.body.data.id),
      })
    }
    // Decision 058: the tokens hold by their visit's key, which each delete cascades through.
    const left = async () =>
      Number(
        (
          await t.db
            .selectFrom('guestToken')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('openHouseId', 'in', [oh.id, other.id])
            .executeTakeFirstOrThrow()
        ).n,
      )
    await t.db
      .deleteFrom('prospect')
      .where('id', '=', await prospectOf(first.body.data.id))
      .execute()
    expect(await left()).toBe(1)
    await t.db.deleteFrom('openHouse').where('id', '=', other.id).execute()
    expect(await left()).toBe(0)
    expect(await attendeesOf(other.id)).toEqual([])
    expect(kept.status).toBe(201)
  })

  it('answers a reused clientRequestId with its first visit, and refuses it at another agent', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const body = visitor(oh.id)
    const first = await signIn(body)
    const edited = await signIn({ ...body, prospectEmailId: `other-${unique()}@example.com` })
    expect(edited.status).toBe(201)
    expect(edited.body.data.id).toBe(first.body.data.id)
    expect(await prospectsOf(listing.agent.id)).toHaveLength(1)

    const elsewhere = await hostedOpenHouse(await agent())
    const reused = await signIn({ ...body, openHouseId: elsewhere.id })
    expect(reused.status).toBe(409)
    expect(reused.body.error.code).toBe('CLIENT_REQUEST_REUSED')
  })

  it('makes one prospect and one attendee of 10 simultaneous tries of one sign-in', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const body = visitor(oh.id)
    const answers = await Promise.all(Array.from({ length: 10 }, () => signIn(body)))
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201))
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1)
    expect(await prospectsOf(listing.agent.id)).toHaveLength(1)
    expect(await attendeesOf(oh.id)).toHaveLength(1)
  })

  it('makes one prospect of simultaneous tries of one sign-in whose email was corrected in between', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const body = visitor(oh.id)
    const answers = await Promise.all([
      signIn(body),
      signIn({ ...body, prospectEmailId: `fixed-${unique()}@example.com` }),
      signIn(body),
    ])
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201])
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1)
    expect(await prospectsOf(listing.agent.id)).toHaveLength(1)
    expect(await attendeesOf(oh.id)).toHaveLength(1)
  })

  it('makes one prospect and two visits of simultaneous sign-ins of one email from two phones (new ids)', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const email = `twice-${unique()}@example.com`
    const answers = await Promise.all([
      signIn(visitor(oh.id, { prospectEmailId: email })),
      signIn(visitor(oh.id, { prospectEmailId: email.toUpperCase() })),
    ])
    expect(answers.map((a) => a.status)).toEqual([201, 201])
    const [prospect] = await prospectsOf(listing.agent.id)
    expect(await prospectsOf(listing.agent.id)).toHaveLength(1)
    const visits = await attendeesOf(oh.id)
    expect(visits.map((v) => v.id).sort()).toEqual(answers.map((a) => a.body.data.id).sort())
    expect(visits.map((v) => v.prospectId)).toEqual([prospect?.id, prospect?.id])
  })

  it("matches a returning visitor by email whatever its case, never overwriting the agent's prospect: what it typed stays with the visit", async () => {
    const listing = await agent()
    const first = await hostedOpenHouse(listing)
    const second = await hostedOpenHouse(listing)
    const email = `casey-${unique()}@example.com`
    const one = await signIn(
      visitor(first.id, {
        prospectFirstName: 'Casey',
        prospectEmailId: email,
        prospectCity: 'Marietta',
        workingWithREAgentFlag: 'true',
      }),
    )
    const two = await signIn(
      visitor(second.id, {
        prospectFirstName: 'Casey',
        prospectEmailId: email.toUpperCase(),
        prospectPhoneNumber: '770 555 0188',
        prospectCity: '',
        bestTimeToContact: 'Evening',
        workingWithREAgentFlag: undefined,
      }),
    )
    expect(two.status).toBe(201)
    expect(two.body.data.id).not.toBe(one.body.data.id)
    expect(await prospectOf(two.body.data.id)).toBe(await prospectOf(one.body.data.id))
    const rows = await prospectsOf(listing.agent.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      prospectEmailId: email,
      prospectPhoneNumber: '404 555 0142',
      prospectCity: 'Marietta',
      bestTimeToContact: 'Afteroon',
      workingWithReAgentFlag: true,
    })
    expect((await attendeesOf(first.id)).map((a) => a.id)).toEqual([one.body.data.id])
    const [visit] = await attendeesOf(second.id)
    expect(visit?.id).toBe(two.body.data.id)
    expect(visit?.prospectId).toBe(rows[0]?.id)
    expect(visit?.guestDetails).toMatchObject({
      prospectEmailId: email.toUpperCase(),
      prospectPhoneNumber: '770 555 0188',
      bestTimeToContact: 'Evening',
    })

    // Signing in again at the same open house is a visit of its own, of the same prospect.
    const three = await signIn(visitor(second.id, { prospectFirstName: 'Casey', prospectEmailId: email }))
    expect(three.status).toBe(201)
    expect((await attendeesOf(second.id)).map((a) => [a.id, a.prospectId])).toEqual([
      [two.body.data.id, rows[0]?.id],
      [three.body.data.id, rows[0]?.id],
    ])
    expect(await prospectsOf(listing.agent.id)).toHaveLength(1)
  })

  it('keeps the same visitor apart for two listing agents: each has its own lead', async () => {
    const a = await agent()
    const b = await agent()
    const email = `both-${unique()}@example.com`
    const atA = await signIn(visitor((await hostedOpenHouse(a)).id, { prospectEmailId: email }))
    const atB = await signIn(visitor((await hostedOpenHouse(b)).id, { prospectEmailId: email }))
    expect(await prospectOf(atA.body.data.id)).not.toBe(await prospectOf(atB.body.data.id))
  })

  it('refuses a NUL byte in a text field at the schema (422, the field named), and stores nothing', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const res = await signIn(visitor(oh.id, { prospectCity: 'Ros\u0000well' }))
    expect(res.status).toBe(422)
    expect(fields(res.body)).toEqual({ prospectCity: 'Contains a character that is not allowed' })
    expect(JSON.stringify(res.body)).not.toMatch(/0x00|UTF8/i)
    expect(await prospectsOf(listing.agent.id)).toEqual([])
    expect(await attendeesOf(oh.id)).toEqual([])
  })

  it('refuses a sign-in at a canceled open house (409) and at one that does not exist (404)', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const canceled = await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: listing.token,
      body: {
        openHouseId: oh.id,
        openHouseCancelReason: 'Seller Not Available',
        openHouseCanceledFlag: 'true',
      },
    })
    expect(canceled.status).toBe(200)
    const res = await signIn(visitor(oh.id))
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('INVALID_STATE')
    expect(await prospectsOf(listing.agent.id)).toEqual([])

    const missing = await signIn(visitor(987654321))
    expect(missing.status).toBe(404)
  })

  it('keeps sign-in open a day after the open house ends, then refuses it with a clear message', async () => {
    const listing = await agent()
    const oh = await hostedOpenHouse(listing)
    const endedAgo = (ms: number) =>
      t.db
        .updateTable('openHouse')
        .set({ endsAt: new Date(Date.now() - ms) })
        .where('id', '=', oh.id)
        .execute()

    await endedAgo(2 * 60 * 60 * 1000)
    expect((await signIn(visitor(oh.id))).status).toBe(201)

    await endedAgo(25 * 60 * 60 * 1000)
    const late = await signIn(visitor(oh.id))
    expect(late.status).toBe(409)
    expect(late.body).toEqual({
      error: { code: 'INVALID_STATE', message: 'This open house has ended. Thank you for your interest.' },
    })
    expect(await attendeesOf(oh.id)).toHaveLength(1)
    // The guest page reads when it ended, and says so instead of showing the form.
    const page = await t.call('GET', `/public/getOpenHouseDetails/${oh.id}`)
    expect(Date.parse(page.body.data.endsAt)).toBeLessThan(Date.now() - 24 * 60 * 60 * 1000)
  })

  it('signs guests in at an open house another agent hosts, as leads of the host, sharing with the listing agent only by consent', async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await scheduleOpenHouse(t, listing)
    await publish(t, listing, oh.id)
    const claimed = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
      token: host.token,
    })
    expect(claimed.status).toBe(200)
    const res = await signIn(visitor(oh.id, { reAgentId: host.agent.id }))
    expect(res.status).toBe(201)
    const shares = await signIn(visitor(oh.id, { reAgentId: host.agent.id, listingAgentConsent: 'true' }))
    const resProspect = await prospectOf(res.body.data.id)
    const sharesProspect = await prospectOf(shares.body.data.id)
    expect((await prospectsOf(host.agent.id)).map((p) => p.id).sort()).toEqual(
      [resProspect, sharesProspect].sort(),
    )
    expect(await prospectsOf(listing.agent.id)).toEqual([])

    // An agent's own prospect with that email is matched, never overwritten by the visitor.
    const typed = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: host.token,
      body: {
        prospectFirstName: 'Morgan',
        prospectLastName: 'Lee',
        prospectEmailId: 'morgan.lee@example.com',
        prospectPhoneNumber: '404 555 0199',
      },
    })
    const back = await signIn(
      visitor(oh.id, {
        prospectFirstName: 'Mallory',
        prospectEmailId: 'MORGAN.LEE@example.com',
        prospectPhoneNumber: '999 555 0000',
      }),
    )
    expect(await prospectOf(back.body.data.id)).toBe(typed.body.data.id)
    const kept = await t.db
      .selectFrom('prospect')
      .selectAll()
      .where('id', '=', typed.body.data.id)
      .executeTakeFirstOrThrow()
    expect(kept).toMatchObject({
      prospectFirstName: 'Morgan',
      prospectPhoneNumber: '404 555 0199',
      emailConsent: false,
    })

    // The host sees its leads in full; the listing agent only those who agreed to share with it.
    const asListing = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: listing.token,
    })
    const byId = new Map(
      asListing.body.data.map((p: { id: number; prospectEmailId: string }) => [p.id, p.prospectEmailId]),
    )
    expect(byId.get(sharesProspect)).toMatch(/^jordan-.*@example\.com$/)
    expect(byId.get(resProspect)).toContain('*')
    const asHost = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: host.token,
    })
    expect(asHost.body.data.every((p: { prospectEmailId: string }) => !p.prospectEmailId.includes('*'))).toBe(
      true,
    )
  })
})

describe('public attendee list', () => {
  it('shows first name and last initial only, newest first, and never an email or phone', async () => {
    const oh = await hostedOpenHouse(await agent())
    const first = visitor(oh.id, { prospectFirstName: 'Ana', prospectLastName: 'lopez' })
    const second = visitor(oh.id, { prospectFirstName: 'Ben', prospectLastName: 'Okafor' })
    await signIn(first)
    await signIn(second)
    const res = await t.call('GET', `/public/getOpenHouseAttendees/${oh.id}`)
    expect(res.status).toBe(200)
    expect(res.body.data.map((a: Record<string, unknown>) => Object.keys(a).sort())).toEqual([
      ['firstName', 'lastInitial', 'signedInAt'],
      ['firstName', 'lastInitial', 'signedInAt'],
    ])
    expect(res.body.data.map((a: { firstName: string; lastInitial: string }) => a)).toMatchObject([
      { firstName: 'Ben', lastInitial: 'O' },
      { firstName: 'Ana', lastInitial: 'L' },
    ])
    const text = JSON.stringify(res.body)
    for (const secret of [first.prospectEmailId, second.prospectEmailId, '404 555 0142', 'lopez', 'Okafor']) {
      expect(text).not.toContain(secret)
    }

    const paged = await t.call('GET', `/public/getOpenHouseAttendees/${oh.id}?limit=1&offset=1`)
    expect(paged.body.data.map((a: { firstName: string }) => a.firstName)).toEqual(['Ana'])
    expect((await t.call('GET', '/public/getOpenHouseAttendees/987654321')).status).toBe(404)
    expect((await t.call('GET', '/public/getOpenHouseAttendees/abc')).status).toBe(400)
  })
})

describe('guest sign-in rate limit', () => {
  let limited: TestApp
  beforeAll(async () => {
    limited = await buildTestApp()
  })
  afterAll(() => limited.close())

  it('allows 60 sign-ins a minute from one address, then answers 429', async () => {
    const listing = await makePlannedAgent(limited.db)
    const oh = await scheduleOpenHouse(limited, listing, { publishLevel: 'Hosting Myself' })
    const statuses: number[] = []
    for (let i = 0; i < 61; i++) {
      statuses.push((await limited.call('POST', '/public/saveProspect', { body: visitor(oh.id) })).status)
    }
    expect(statuses.slice(0, 60).every((s) => s === 201)).toBe(true)
    expect(statuses[60]).toBe(429)
  })
})
