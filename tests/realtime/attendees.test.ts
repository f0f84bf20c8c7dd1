import { randomBytes, randomUUID } from 'node:crypto'
import type { WatchAck } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { collect, connectSocket, nextEvent, type TestSocket } from '../support/socket.ts'

// Sockets sit on app `b`, calls go to app `a`: the events cross API processes through Redis.
let a: TestApp
let b: TestApp
const sockets: TestSocket[] = []

beforeAll(async () => {
  a = await buildTestApp()
  b = await buildTestApp({ sameAs: a })
})
afterAll(async () => {
  for (const s of sockets) s.close()
  await b.close()
  await a.close()
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>
const unique = () => randomBytes(4).toString('hex')

async function socketOf(auth: { token: string } | { openHouseId: number }) {
  const s = await connectSocket(b.url, auth)
  sockets.push(s)
  return s
}

function watch(socket: TestSocket, openHouseId: number): Promise<WatchAck> {
  return new Promise((resolve) => socket.emit('watch', { openHouseId }, resolve))
}

async function hostedBy(listing: Agent, host: Agent) {
  const oh = await scheduleOpenHouse(a, listing)
  await publish(a, listing, oh.id)
  await a.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
    token: host.token,
  })
  return oh
}

function visitor(openHouseId: number, overrides: Record<string, unknown> = {}) {
  return {
    prospectFirstName: 'Dana',
    prospectLastName: 'whitfield',
    prospectEmailId: `dana-${unique()}@example.com`,
    prospectPhoneNumber: '404 555 0166',
    openHouseId,
    clientRequestId: randomUUID(),
    ...overrides,
  }
}

const settle = () => new Promise((r) => setTimeout(r, 200))

describe('live attendee board', () => {
  it("puts a guest's sign-in on the host's board and the guest pages with first name and last initial only", async () => {
    const listing = await makePlannedAgent(a.db)
    const host = await makePlannedAgent(a.db)
    const oh = await hostedBy(listing, host)

    const hostSocket = await socketOf({ token: host.token })
    const listingSocket = await socketOf({ token: listing.token })
    expect(await watch(hostSocket, oh.id)).toEqual({ ok: true })
    const guestPage = await socketOf({ openHouseId: oh.id })

    const onBoard = nextEvent(hostSocket, 'attendee.added')
    const onGuestPage = nextEvent(guestPage, 'attendee.added')
    const hostStats = nextEvent(hostSocket, 'stats.changed')
    const listingStats = nextEvent(listingSocket, 'stats.changed')
    const body = visitor(oh.id)
    const res = await a.call('POST', '/public/saveProspect', { body })
    expect(res.status).toBe(201)

    const event = await onBoard
    expect(event.type).toBe('attendee.added')
    expect(event.openHouseId).toBe(oh.id)
    expect(Object.keys(event.data).sort()).toEqual(['firstName', 'lastInitial', 'openHouseId', 'signedInAt'])
    expect(event.data).toMatchObject({ openHouseId: oh.id, firstName: 'Dana', lastInitial: 'W' })
    expect(Date.parse(event.data.signedInAt)).not.toBeNaN()
    expect((await onGuestPage).data).toEqual(event.data)
    for (const e of [event, await onGuestPage]) {
      const text = JSON.stringify(e)
      expect(text).not.toContain(body.prospectEmailId)
      expect(text).not.toContain('whitfield')
      expect(text).not.toContain(body.prospectPhoneNumber)
    }
    await hostStats
    await listingStats
  })

  it('announces a retried sign-in once, and tells nothing to an agent who may not watch', async () => {
    const listing = await makePlannedAgent(a.db)
    const outsider = await makePlannedAgent(a.db)
    const oh = await scheduleOpenHouse(a, listing, { publishLevel: 'Hosting Myself' })
    const board = await socketOf({ token: listing.token })
    expect(await watch(board, oh.id)).toEqual({ ok: true })
    const outsiderSocket = await socketOf({ token: outsider.token })
    expect(await watch(outsiderSocket, oh.id)).toEqual({ ok: false, error: { code: 'FORBIDDEN' } })
    const seen = collect(board, 'attendee.added')
    const outsiderSeen = collect(outsiderSocket, 'attendee.added')

    const body = visitor(oh.id)
    const first = nextEvent(board, 'attendee.added')
    await a.call('POST', '/public/saveProspect', { body })
    await first
    await a.call('POST', '/public/saveProspect', { body })
    await settle()
    expect(seen).toHaveLength(1)
    expect(outsiderSeen).toEqual([])
  })

  it('tells a burst of sign-ins to the dashboards as one stats.changed, each guest still on the board', async () => {
    const listing = await makePlannedAgent(a.db)
    const host = await makePlannedAgent(a.db)
    const oh = await hostedBy(listing, host)
    const hostSocket = await socketOf({ token: host.token })
    expect(await watch(hostSocket, oh.id)).toEqual({ ok: true })
    await settle() // the claim's own stats.changed
    const stats = collect(hostSocket, 'stats.changed')
    const added = collect(hostSocket, 'attendee.added')
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => a.call('POST', '/public/saveProspect', { body: visitor(oh.id) })),
    )
    expect(answers.every((r) => r.status === 201)).toBe(true)
    await expect.poll(() => added.length).toBe(10)
    await expect.poll(() => stats.length).toBeGreaterThan(0)
    await new Promise((r) => setTimeout(r, 500))
    // One event per 200 ms at most (a slow machine may spread ten sign-ins over two or three).
    expect(stats.length).toBeLessThanOrEqual(3)
  })

  it("keeps another open house's guests off a guest page", async () => {
    const listing = await makePlannedAgent(a.db)
    const mine = await scheduleOpenHouse(a, listing, { publishLevel: 'Hosting Myself' })
    const other = await scheduleOpenHouse(a, listing, { publishLevel: 'Hosting Myself' })
    const guestPage = await socketOf({ openHouseId: mine.id })
    const seen = collect(guestPage, 'attendee.added')
    const stats = collect(guestPage, 'stats.changed')
    await a.call('POST', '/public/saveProspect', { body: visitor(other.id) })
    const arrived = nextEvent(guestPage, 'attendee.added')
    await a.call('POST', '/public/saveProspect', { body: visitor(mine.id, { prospectFirstName: 'Mine' }) })
    expect((await arrived).data.firstName).toBe('Mine')
    await settle()
    expect(seen.map((e) => e.openHouseId)).toEqual([mine.id])
    expect(stats).toEqual([])
  })

  it('announces an attendee the host adds by hand', async () => {
    const host = await makePlannedAgent(a.db)
    const oh = await scheduleOpenHouse(a, host, { publishLevel: 'Hosting Myself' })
    const saved = await a.call('POST', '/prospectmgmt/saveProspect', {
      token: host.token,
      body: { ...visitor(oh.id), prospectFirstName: 'Walk', prospectLastName: 'in', openHouseId: undefined },
    })
    const guestPage = await socketOf({ openHouseId: oh.id })
    const arrived = nextEvent(guestPage, 'attendee.added')
    const res = await a.call('POST', '/openhousemgmt/AddAttendee', {
      token: host.token,
      body: { openHouseId: oh.id, prospectId: saved.body.data.id },
    })
    expect(res.status).toBe(201)
    expect((await arrived).data).toMatchObject({ firstName: 'Walk', lastInitial: 'I' })
  })
})

describe('live feedback', () => {
  it('tells the watching host of new feedback, and the guest pages nothing', async () => {
    const listing = await makePlannedAgent(a.db)
    const host = await makePlannedAgent(a.db)
    const oh = await hostedBy(listing, host)
    const signedIn = await a.call('POST', '/public/saveProspect', { body: visitor(oh.id) })

    const hostSocket = await socketOf({ token: host.token })
    expect(await watch(hostSocket, oh.id)).toEqual({ ok: true })
    const guestPage = await socketOf({ openHouseId: oh.id })
    const guestSeen = collect(guestPage, 'feedback.submitted')

    const arrived = nextEvent(hostSocket, 'feedback.submitted')
    const res = await a.call('POST', '/public/saveOpenHouseFeedback', {
      body: {
        openHouseId: oh.id,
        prospectId: signedIn.body.data.id,
        guestToken: signedIn.body.data.guestToken,
        kitchen: 5,
        feedbackText: 'Nice.',
      },
    })
    expect(res.status).toBe(201)
    const event = await arrived
    expect(event.openHouseId).toBe(oh.id)
    expect(event.data).toEqual({ openHouseId: oh.id, feedbackId: res.body.data.id })
    await settle()
    expect(guestSeen).toEqual([])
  })
})
