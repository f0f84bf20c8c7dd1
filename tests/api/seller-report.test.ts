import { randomUUID } from 'node:crypto'
import { FEEDBACK_RATING_FIELDS } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { publish, scheduleFor, scheduleHostedBy, scheduleOpenHouse } from '../support/open-houses.ts'
import { collect, connectSocket, nextEvent } from '../support/socket.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t?.close())

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

const visitor = {
  prospectFirstName: 'Zephyrine',
  prospectLastName: 'Quillfeather',
  prospectEmailId: 'zephyrine.quill@example.org',
  prospectPhoneNumber: '678 555 0142',
}

async function signIn(openHouseId: number, extra: Record<string, unknown> = {}, who = visitor) {
  const res = await t.call('POST', '/public/saveProspect', {
    body: { ...who, openHouseId, clientRequestId: randomUUID(), ...extra },
  })
  if (res.status !== 201) throw new Error(`sign-in: ${JSON.stringify(res.body)}`)
  return res.body.data as { id: number; guestToken: string }
}

async function giveFeedback(openHouseId: number, guest: { id: number; guestToken: string }, text: string) {
  const ratings = Object.fromEntries(FEEDBACK_RATING_FIELDS.map((f) => [f, '']))
  const res = await t.call('POST', '/public/saveOpenHouseFeedback', {
    body: {
      openHouseId,
      prospectId: guest.id,
      guestToken: guest.guestToken,
      feedbackText: text,
      ...ratings,
      kitchen: 5,
      homePrice: 2,
      agentKnowledge: 1,
    },
  })
  if (res.status !== 201) throw new Error(`feedback: ${JSON.stringify(res.body)}`)
}

const createLink = (id: number, who?: Agent, body?: unknown) =>
  t.call('POST', `/openhousemgmt/createSellerReportLink/${id}`, { token: who?.token, body })
const tokenOf = (url: string) => url.split('/seller/')[1] as string
const report = (token: string) => t.call('GET', `/public/getSellerReport/${token}`)

async function liveOpenHouse(listing: Agent) {
  const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
  return oh
}

describe('the seller report link', () => {
  it('gives the listing agent an unguessable link that opens the report without a sign-in', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await liveOpenHouse(listing)
    const made = await createLink(oh.id, listing)
    expect(made.status).toBe(201)
    expect(made.body.data.url).toMatch(new RegExp(`^${t.url}/seller/[\\w-]{43}$`))
    const expiresIn = Date.parse(made.body.data.expiresAt) - Date.now()
    expect(expiresIn).toBeGreaterThan(6.9 * 86_400_000)
    expect(expiresIn).toBeLessThanOrEqual(7 * 86_400_000)

    // Only a hash is kept: the token itself is nowhere in the database.
    const token = tokenOf(made.body.data.url)
    const stored = await t.db
      .selectFrom('sellerReportLink')
      .selectAll()
      .where('openHouseId', '=', oh.id)
      .execute()
    expect(stored).toHaveLength(1)
    expect(JSON.stringify(stored)).not.toContain(token)

    const res = await fetch(`${t.url}/api/public/getSellerReport/${token}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const { data } = await res.json()
    expect(data.visitors.count).toBe(0)
    expect(data.openHouse.address).toContain('Lantern Way')

    const status = await t.call('GET', `/openhousemgmt/getSellerReportLink/${oh.id}`, {
      token: listing.token,
    })
    expect(status.body.data).toEqual({
      active: 1,
      expiresAt: made.body.data.expiresAt,
      seller: { email: null, unsubscribed: false, mailedAt: null },
    })
  })

  it('counts visitors with when they came, how they heard, their timelines and agents, and never names them', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Lorelai', lastName: 'Listwell' })
    const oh = await liveOpenHouse(listing)
    const token = tokenOf((await createLink(oh.id, listing, { expiresInDays: 2 })).body.data.url)

    const first = await signIn(oh.id, {
      heardAboutThisOpenHouse: 'Signs',
      homeBuyingTimelines: '1-3 Months',
      workingWithREAgentFlag: 'false',
    })
    await signIn(
      oh.id,
      { heardAboutThisOpenHouse: 'Signs', homeBuyingTimelines: 'Now', workingWithREAgentFlag: 'true' },
      {
        prospectFirstName: 'Bartholomew',
        prospectLastName: 'Onyxbridge',
        prospectEmailId: 'bart.onyx@example.org',
        prospectPhoneNumber: '(404) 555-0177',
      },
    )
    await signIn(oh.id, {}, { ...visitor, prospectEmailId: 'third@example.org', prospectFirstName: 'Tertia' })
    await giveFeedback(
      oh.id,
      first,
      'Zephyrine here: lovely kitchen, Bartholomew agreed. Lorelai was kind. Mail zq@example.org or call 678-555-0142.',
    )

    const res = await report(token)
    expect(res.status).toBe(200)
    const data = res.body.data
    expect(data.visitors).toMatchObject({ count: 3, withAgent: 1, withoutAgent: 1, agentUnknown: 1 })
    expect(data.visitors.heardAbout).toEqual([{ label: 'Signs', count: 2 }])
    expect(data.visitors.timelines).toEqual(
      expect.arrayContaining([
        { label: '1-3 Months', count: 1 },
        { label: 'Now', count: 1 },
      ]),
    )
    expect(data.visitors.visits).toHaveLength(3)
    expect(data.visitors.visits[0]).toEqual({
      signedInAt: expect.any(String),
      heardAboutThisOpenHouse: 'Signs',
      homeBuyingTimelines: '1-3 Months',
      workingWithREAgent: false,
    })
    // The home's ratings only: the hosting agent's are not the seller's business.
    expect(data.feedback.ratings).toEqual([
      { field: 'kitchen', average: 5, count: 1 },
      { field: 'homePrice', average: 2, count: 1 },
    ])
    expect(data.feedback.comments).toEqual([
      '[name] here: lovely kitchen, [name] agreed. [name] was kind. Mail [email] or call [phone].',
    ])

    const whole = JSON.stringify(res.body)
    for (const pii of [
      'Zephyrine',
      'Quillfeather',
      'Bartholomew',
      'Onyxbridge',
      'Tertia',
      'example.org',
      // The guests' phone numbers, as typed and in a comment (not bare digits, which a time may hold).
      '555 0142',
      '555-0142',
      '555-0177',
      'prospect',
      'Email',
      'Phone',
    ]) {
      expect(whole).not.toContain(pii)
    }
  })

  it('is made and revoked by the listing agent and the teammate who scheduled it, and nobody else may know of it', async () => {
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: 'FIRM-SELLER' })
    const listing = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-SELLER' })
    const host = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-SELLER' })
    const stranger = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-ELSE' })
    await makeTeam(t.db, lead, [listing])

    const scheduled = await scheduleFor(t, lead, listing.agent.id)
    expect((await createLink(scheduled.id, lead)).status).toBe(201)
    expect((await createLink(scheduled.id, listing)).status).toBe(201)

    const hosted = await scheduleHostedBy(t, listing, host)
    for (const who of [host, stranger]) {
      const refused = await createLink(hosted.id, who)
      expect(refused.status).toBe(404)
      expect(refused.body.error.code).toBe('NOT_FOUND')
      const revoke = await t.call('DELETE', `/openhousemgmt/revokeSellerReportLink/${hosted.id}`, {
        token: who.token,
      })
      expect(revoke.status).toBe(404)
    }
    expect((await createLink(hosted.id)).status).toBe(403)
    const links = await t.db
      .selectFrom('sellerReportLink')
      .select('id')
      .where('openHouseId', '=', hosted.id)
      .execute()
    expect(links).toEqual([])
  })

  it('answers 404 in the contract shape once the link is revoked or expired', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing)
    await publish(t, listing, oh.id)
    const first = tokenOf((await createLink(oh.id, listing)).body.data.url)
    const second = tokenOf((await createLink(oh.id, listing)).body.data.url)
    expect((await report(first)).status).toBe(200)
    expect((await report(second)).status).toBe(200)

    const revoked = await t.call('DELETE', `/openhousemgmt/revokeSellerReportLink/${oh.id}`, {
      token: listing.token,
    })
    expect(revoked.body.data).toEqual({ revoked: 2 })
    for (const token of [first, second]) {
      const gone = await report(token)
      expect(gone.status).toBe(404)
      expect(gone.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('expired') } })
    }

    const third = tokenOf((await createLink(oh.id, listing)).body.data.url)
    await t.db
      .updateTable('sellerReportLink')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('openHouseId', '=', oh.id)
      .where('revokedAt', 'is', null)
      .execute()
    expect((await report(third)).status).toBe(404)
    expect((await report('not-a-real-token-but-well-formed-000000000')).status).toBe(404)
    expect((await report('short')).status).toBe(404)
    const status = await t.call('GET', `/openhousemgmt/getSellerReportLink/${oh.id}`, {
      token: listing.token,
    })
    expect(status.body.data).toEqual({ active: 0, expiresAt: null, seller: null })
  })

  it('refuses a link that works for more than 90 days', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing)
    const res = await createLink(oh.id, listing, { expiresInDays: 365 })
    expect(res.status).toBe(422)
  })
})

describe('the seller report socket', () => {
  it('tells the seller page that something changed, without a name, and ends when the link is revoked', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await liveOpenHouse(listing)
    const token = tokenOf((await createLink(oh.id, listing)).body.data.url)
    await expect(
      connectSocket(t.url, { sellerToken: 'not-a-real-token-but-well-formed-000' } as never),
    ).rejects.toThrow('NOT_FOUND')
    const socket = await connectSocket(t.url, { sellerToken: token } as never)
    try {
      const added = collect(socket, 'attendee.added')
      const changed = nextEvent(socket, 'sellerReport.changed')
      await signIn(oh.id)
      const event = await changed
      expect(event.data).toEqual({ openHouseId: oh.id })
      expect(JSON.stringify(event)).not.toContain('Zephyrine')
      expect(added).toEqual([])

      // A burst of guests: the page refetches a few times, not once a guest (one hint per 200 ms).
      const hints = collect(socket, 'sellerReport.changed')
      await Promise.all(Array.from({ length: 10 }, () => signIn(oh.id)))
      await expect.poll(() => hints.length).toBeGreaterThan(0)
      await new Promise((r) => setTimeout(r, 500))
      expect(hints.length).toBeLessThanOrEqual(3)

      const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve))
      await t.call('DELETE', `/openhousemgmt/revokeSellerReportLink/${oh.id}`, { token: listing.token })
      expect(await closed).toBe('io server disconnect')
    } finally {
      socket.close()
    }
  })
})
