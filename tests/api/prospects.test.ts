import { randomBytes, randomUUID } from 'node:crypto'
import {
  lastUpdatedText,
  maskEmail,
  maskPhone,
  matchesProspectSearch,
  messages,
  prospectSearchTerm,
} from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { prospectOfVisit, publish, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const agent = (overrides: Parameters<typeof makePlannedAgent>[1] = {}) => makePlannedAgent(t.db, overrides)
const unique = () => randomBytes(4).toString('hex')
const fields = (body: { errors?: Array<{ field: string; message: string }> }) =>
  Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]))
const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((p) => p.id)

const prospectFields = (overrides: Record<string, unknown> = {}) => ({
  prospectFirstName: 'Riley',
  prospectLastName: 'Stone',
  prospectEmailId: `riley-${unique()}@example.com`,
  prospectPhoneNumber: '404 555 0177',
  prospectAddress1: '12 Porch Lane',
  prospectCity: 'Roswell',
  prospectState: 'Georgia',
  prospectZipCode: 30075,
  prospectCountry: 'United States',
  currentHouseStatus: 'Own',
  homeBuyingTimelines: 'Just Exploring',
  workingWithREAgentFlag: 'true',
  bestTimeToContact: 'Afteroon',
  heardAboutThisOpenHouse: 'Realtor Communication',
  prospectNotification: 'Both',
  createdDate: new Date().toISOString(),
  updatedDate: new Date().toISOString(),
  ...overrides,
})

async function save(owner: Agent, overrides: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/prospectmgmt/saveProspect', {
    token: owner.token,
    body: prospectFields(overrides),
  })
  if (res.status !== 201) throw new Error(`saveProspect: ${JSON.stringify(res.body)}`)
  return res.body.data as { id: number; prospectEmailId: string; prospectPhoneNumber: string }
}

/** An open house of `listing` hosted by `host` (published to all, then claimed). */
async function hostedBy(listing: Agent, host: Agent) {
  const oh = await scheduleOpenHouse(t, listing)
  await publish(t, listing, oh.id)
  const res = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
    token: host.token,
  })
  if (res.status !== 200) throw new Error(`claim: ${JSON.stringify(res.body)}`)
  return oh
}

async function guestSignIn(openHouseId: number, overrides: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/public/saveProspect', {
    body: { ...prospectFields(overrides), openHouseId, clientRequestId: randomUUID() },
  })
  if (res.status !== 201) throw new Error(`guest: ${JSON.stringify(res.body)}`)
  // The agent's prospect behind the visit the sign-in answers (decision 029).
  return prospectOfVisit(t, res.body.data.id)
}

describe("an agent's own prospects", () => {
  it('saves a prospect with every SPEC field, owned by the caller whatever the body says', async () => {
    const owner = await agent()
    const other = await agent()
    const res = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: owner.token,
      body: prospectFields({ createdByREAgentId: other.agent.id, prospectMiddleName: 'J' }),
    })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      prospectFirstName: 'Riley',
      prospectMiddleName: 'J',
      prospectZipCode: '30075',
      currentHouseStatus: 'Own',
      homeBuyingTimelines: 'Just Exploring',
      workingWithREAgentFlag: true,
      bestTimeToContact: 'Afteroon',
      heardAboutThisOpenHouse: 'Realtor Communication',
      prospectNotification: 'Both',
      createdByREAgentId: owner.agent.id,
      emailConsent: false,
      consentAt: null,
      ownProspect: true,
    })
    expect(typeof res.body.data.id).toBe('number')
    expect(Date.parse(res.body.data.createdDate)).not.toBeNaN()
  })

  it('validates the prospect form: names, email, phone and option lists', async () => {
    const owner = await agent()
    const res = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: owner.token,
      body: prospectFields({
        prospectFirstName: '',
        prospectLastName: '   ',
        prospectEmailId: 'not an email',
        prospectPhoneNumber: '12',
        prospectNotification: 'Fax',
        workingWithREAgentFlag: 'maybe',
      }),
    })
    expect(res.status).toBe(422)
    expect(fields(res.body)).toMatchObject({
      prospectFirstName: 'First name is required',
      prospectLastName: 'Last name is required',
      prospectEmailId: messages.emailIdNotValid,
      prospectPhoneNumber: 'Enter a phone number of 7 to 20 digits',
      prospectNotification: 'Prospect notification must be one of: Email, SMS, Both',
    })
    expect(Object.keys(fields(res.body))).toContain('workingWithREAgentFlag')
  })

  it('refuses a second prospect with the same email (any case) with the SPEC text', async () => {
    const owner = await agent()
    const first = await save(owner)
    const res = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: owner.token,
      body: prospectFields({ prospectEmailId: first.prospectEmailId.toUpperCase() }),
    })
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'PROSPECT_EXISTS', message: messages.propertySaveFailed })
    // Another agent may have the same person as a lead.
    expect((await save(await agent(), { prospectEmailId: first.prospectEmailId })).id).not.toBe(first.id)
  })

  it('lets the owner edit; another agent learns nothing and changes nothing', async () => {
    const owner = await agent()
    const stranger = await agent()
    const p = await save(owner)
    const taken = await save(owner)
    const edited = await t.call('PATCH', `/prospectmgmt/saveProspect/${p.id}`, {
      token: owner.token,
      body: prospectFields({
        prospectEmailId: p.prospectEmailId,
        prospectCity: 'Alpharetta',
        bestTimeToContact: '',
      }),
    })
    expect(edited.status).toBe(200)
    expect(edited.body.data).toMatchObject({ id: p.id, prospectCity: 'Alpharetta', bestTimeToContact: null })

    const clash = await t.call('PATCH', `/prospectmgmt/saveProspect/${p.id}`, {
      token: owner.token,
      body: prospectFields({ prospectEmailId: taken.prospectEmailId }),
    })
    expect(clash.status).toBe(409)

    const theirs = await t.call('PATCH', `/prospectmgmt/saveProspect/${p.id}`, {
      token: stranger.token,
      body: prospectFields(),
    })
    expect(theirs.status).toBe(404)
    expect(
      (
        await t.call('PATCH', '/prospectmgmt/saveProspect/987654321', {
          token: owner.token,
          body: prospectFields(),
        })
      ).status,
    ).toBe(404)
  })

  it('lists the agent its own prospects newest first, pages them, and refuses another agent the list', async () => {
    const owner = await agent()
    const stranger = await agent()
    const a = await save(owner)
    const b = await save(owner)
    const c = await save(owner)
    await save(stranger)
    const list = await t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${owner.agent.id}`, {
      token: owner.token,
    })
    expect(list.status).toBe(200)
    expect(ids(list)).toEqual([c.id, b.id, a.id])
    const page = await t.call(
      'GET',
      `/prospectmgmt/getProspectsByREAgentId/${owner.agent.id}?limit=1&offset=1`,
      {
        token: owner.token,
      },
    )
    expect(ids(page)).toEqual([b.id])

    const denied = await t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${owner.agent.id}`, {
      token: stranger.token,
    })
    expect(denied.status).toBe(403)
    expect(JSON.stringify(denied.body)).not.toContain(a.prospectEmailId)
  })

  it('searches first or last name from 3 characters on, whatever the case; shorter shows everyone', async () => {
    const owner = await agent()
    const morgan = await save(owner, { prospectFirstName: 'Morgan', prospectLastName: 'Blake' })
    const ada = await save(owner, { prospectFirstName: 'Ada', prospectLastName: 'Morrison' })
    const lee = await save(owner, { prospectFirstName: 'Lee', prospectLastName: 'Chan' })
    const search = (q: string) =>
      t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${owner.agent.id}?q=${encodeURIComponent(q)}`, {
        token: owner.token,
      })
    expect(ids(await search('MOR'))).toEqual([ada.id, morgan.id])
    expect(ids(await search('blak'))).toEqual([morgan.id])
    expect(ids(await search('mo'))).toEqual([lee.id, ada.id, morgan.id])
    expect(ids(await search('  '))).toEqual([lee.id, ada.id, morgan.id])
    // LIKE wildcards are plain characters.
    expect(ids(await search('%%%'))).toEqual([])
    expect(ids(await search('___'))).toEqual([])
  })

  it('needs a session and a valid license', async () => {
    const unlicensed = await agent({ licenseValid: false })
    expect((await t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${unlicensed.agent.id}`)).status).toBe(
      403,
    )
    const res = await t.call('GET', `/prospectmgmt/getProspectsByREAgentId/${unlicensed.agent.id}`, {
      token: unlicensed.token,
    })
    expect(res.status).toBe(403)
    expect(res.body.error).toEqual({ code: 'LICENSE_INVALID', message: messages.licenseNotValid })
  })
})

describe('prospects of an open house', () => {
  it("shows the listing and hosting agents who came; guests are the host's leads, masked to the listing agent", async () => {
    const listing = await agent()
    const host = await agent()
    const stranger = await agent()
    const oh = await hostedBy(listing, host)
    const email = `guest-${unique()}@example.com`
    const guestId = await guestSignIn(oh.id, { prospectEmailId: email, prospectPhoneNumber: '404 555 0123' })

    const asHost = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: host.token,
    })
    expect(asHost.status).toBe(200)
    expect(asHost.body.data).toHaveLength(1)
    expect(asHost.body.data[0]).toMatchObject({
      id: guestId,
      prospectEmailId: email,
      prospectPhoneNumber: '404 555 0123',
      ownProspect: true,
    })
    expect(Date.parse(asHost.body.data[0].signedInAt)).not.toBeNaN()

    // The guest did not tick the listing agent's consent box.
    const asListing = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: listing.token,
    })
    expect(asListing.body.data[0]).toMatchObject({
      id: guestId,
      prospectEmailId: maskEmail(email),
      prospectPhoneNumber: '*** *** 0123',
      ownProspect: false,
    })
    expect(JSON.stringify(asListing.body)).not.toContain(email)

    // Offered to every agent: the stranger sees the open house, not who came.
    const denied = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: stranger.token,
    })
    expect(denied.status).toBe(403)
    expect(JSON.stringify(denied.body)).not.toContain(email)
  })

  it('shows a prospect in detail to its owner and to the host of an open house it attended, to no one else', async () => {
    const listing = await agent()
    const host = await agent()
    const stranger = await agent()
    const oh = await hostedBy(listing, host)
    const email = `detail-${unique()}@example.com`
    const guestId = await guestSignIn(oh.id, { prospectEmailId: email })

    const own = await t.call('GET', `/prospectmgmt/getProspectDetails/${guestId}`, { token: host.token })
    expect(own.status).toBe(200)
    expect(own.body.data).toMatchObject({ id: guestId, prospectEmailId: email, ownProspect: true })

    const listings = await t.call('GET', `/prospectmgmt/getProspectDetails/${guestId}`, {
      token: listing.token,
    })
    expect(listings.status).toBe(200)
    expect(listings.body.data).toMatchObject({ prospectEmailId: maskEmail(email), ownProspect: false })

    const none = await t.call('GET', `/prospectmgmt/getProspectDetails/${guestId}`, { token: stranger.token })
    expect(none.status).toBe(404)
    expect(JSON.stringify(none.body)).not.toContain(email)

    // The listing agent may see it, but only its owner may edit it (others learn nothing).
    const edit = await t.call('PATCH', `/prospectmgmt/saveProspect/${guestId}`, {
      token: listing.token,
      body: prospectFields({ prospectEmailId: email }),
    })
    expect(edit.status).toBe(404)
  })

  it('lists the prospects of the host not yet at the open house, searchable', async () => {
    const host = await agent()
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const came = await save(host, { prospectFirstName: 'Came' })
    const notYet = await save(host, { prospectFirstName: 'Notyet', prospectLastName: 'Visitor' })
    const other = await save(host, { prospectFirstName: 'Other', prospectLastName: 'Person' })
    const added = await t.call('POST', '/openhousemgmt/AddAttendee', {
      token: host.token,
      body: { openHouseId: oh.id, prospectId: came.id, createdDate: new Date().toISOString() },
    })
    expect(added.status).toBe(201)
    const path = `/prospectmgmt/getProspectsByREAgentIdNotInOH/${host.agent.id}/${oh.id}`
    expect(ids(await t.call('GET', path, { token: host.token }))).toEqual([other.id, notYet.id])
    expect(ids(await t.call('GET', `${path}?q=visi`, { token: host.token }))).toEqual([notYet.id])

    const stranger = await agent()
    expect(
      (
        await t.call('GET', `/prospectmgmt/getProspectsByREAgentIdNotInOH/${stranger.agent.id}/${oh.id}`, {
          token: stranger.token,
        })
      ).status,
    ).toBe(404)
    expect((await t.call('GET', path, { token: stranger.token })).status).toBe(403)
  })

  it('adds a new prospect to the open house the host is hosting, atomically', async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await hostedBy(listing, host)
    const res = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: host.token,
      body: prospectFields({ openHouseId: oh.id }),
    })
    expect(res.status).toBe(201)
    const list = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: host.token,
    })
    expect(list.body.data.map((p: { id: number; ownProspect: boolean }) => [p.id, p.ownProspect])).toEqual([
      [res.body.data.id, true],
    ])

    // The listing agent does not host it: refused, and no prospect is left behind.
    const email = `atomic-${unique()}@example.com`
    const refused = await t.call('POST', '/prospectmgmt/saveProspect', {
      token: listing.token,
      body: prospectFields({ openHouseId: oh.id, prospectEmailId: email }),
    })
    expect(refused.status).toBe(403)
    const left = await t.db.selectFrom('prospect').select('id').where('prospectEmailId', '=', email).execute()
    expect(left).toEqual([])

    // An edit with the open house adds an existing prospect; doing it twice is no error.
    const mine = await save(host)
    for (let i = 0; i < 2; i++) {
      const edited = await t.call('PATCH', `/prospectmgmt/saveProspect/${mine.id}`, {
        token: host.token,
        body: prospectFields({ prospectEmailId: mine.prospectEmailId, openHouseId: oh.id }),
      })
      expect(edited.status).toBe(200)
    }
    const after = await t.call('GET', `/prospectmgmt/getProspectsByOpenHouseId/${oh.id}`, {
      token: host.token,
    })
    expect(ids(after)).toEqual([mine.id, res.body.data.id])
  })
})

describe('AddAttendee', () => {
  it("lets the host add its own prospect once, with SPEC's text on a repeat; nobody else's", async () => {
    const listing = await agent()
    const host = await agent()
    const oh = await hostedBy(listing, host)
    const hostsOwn = await save(host)
    const listingsOwn = await save(listing)
    const strangers = await save(await agent())
    const add = (who: Agent, prospectId: number, openHouseId = oh.id) =>
      t.call('POST', '/openhousemgmt/AddAttendee', {
        token: who.token,
        body: {
          openHouseId,
          prospectId,
          createdDate: new Date().toISOString(),
          updatedDate: new Date().toISOString(),
        },
      })

    const first = await add(host, hostsOwn.id)
    expect(first.status).toBe(201)
    expect(first.body.data.id).toBeGreaterThan(0)
    expect((await add(host, listingsOwn.id)).status).toBe(404)

    const again = await add(host, hostsOwn.id)
    expect(again.status).toBe(409)
    expect(again.body.error).toEqual({ code: 'ALREADY_ATTENDEE', message: messages.addAttendeeFailed })

    expect((await add(host, strangers.id)).status).toBe(404)
    expect((await add(host, 987654321)).status).toBe(404)
    expect((await add(listing, listingsOwn.id)).status).toBe(403)
    // Offered to every agent: another agent sees the open house but may not add to it.
    expect((await add(await agent(), hostsOwn.id)).status).toBe(403)
    expect((await add(host, hostsOwn.id, 987654321)).status).toBe(404)

    const bad = await t.call('POST', '/openhousemgmt/AddAttendee', {
      token: host.token,
      body: { openHouseId: 'x' },
    })
    expect(bad.status).toBe(422)
    expect(Object.keys(fields(bad.body)).sort()).toEqual(['openHouseId', 'prospectId'])
  })

  it('adds no attendee to a canceled open house', async () => {
    const host = await agent()
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const p = await save(host)
    await t.call('POST', '/openhousemgmt/cancelOpenHouse', {
      token: host.token,
      body: { openHouseId: oh.id, openHouseCancelReason: 'Other', openHouseCanceledFlag: true },
    })
    const res = await t.call('POST', '/openhousemgmt/AddAttendee', {
      token: host.token,
      body: { openHouseId: oh.id, prospectId: p.id },
    })
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('INVALID_STATE')
  })
})

describe('prospect rules shared with the web', () => {
  it("reads Last Updated as 'Today' or 'N Days back' (whole days rounded up, minus one)", () => {
    const now = new Date('2026-11-20T12:00:00Z')
    const ago = (hours: number) => new Date(now.getTime() - hours * 3_600_000)
    expect(lastUpdatedText(ago(0), now)).toBe('Today')
    expect(lastUpdatedText(ago(23), now)).toBe('Today')
    expect(lastUpdatedText(ago(24), now)).toBe('Today')
    expect(lastUpdatedText(ago(25), now)).toBe('1 Days back')
    expect(lastUpdatedText(ago(48), now)).toBe('1 Days back')
    expect(lastUpdatedText(ago(49).toISOString(), now)).toBe('2 Days back')
    expect(lastUpdatedText(ago(24 * 30 + 1), now)).toBe('30 Days back')
  })

  it('masks an email keeping the ends of the local part and 3 characters of the domain label', () => {
    expect(maskEmail('jonathan@example.com')).toBe('j******n@exa****.com')
    expect(maskEmail('al@gmail.co.uk')).toBe('al@gma**.co.uk')
    expect(maskEmail('a@b.io')).toBe('a@b.io')
    expect(maskEmail('casey.r@abc.org')).toBe('c*****r@abc.org')
    expect(maskPhone('+1 (404) 555-0123')).toBe('+* (***) ***-0123')
  })

  it('searches from 3 characters on, first or last name, any case', () => {
    const p = { prospectFirstName: 'Morgan', prospectLastName: 'Blake' }
    expect(prospectSearchTerm(' mo ')).toBeNull()
    expect(prospectSearchTerm(' mor ')).toBe('mor')
    expect(matchesProspectSearch(p, 'MOR')).toBe(true)
    expect(matchesProspectSearch(p, 'lak')).toBe(true)
    expect(matchesProspectSearch(p, 'xyz')).toBe(false)
    expect(matchesProspectSearch(p, 'xy')).toBe(true)
  })
})
