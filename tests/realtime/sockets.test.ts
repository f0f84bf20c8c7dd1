import { rooms } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makeAgent } from '../support/factories.ts'
import { collect, connectSocket, nextEvent, type TestSocket } from '../support/socket.ts'

let a: TestApp
let b: TestApp
const sockets: TestSocket[] = []

beforeAll(async () => {
  a = await buildTestApp()
  // A second API process: same database, same Redis prefix.
  b = await buildTestApp({ sameAs: a })
})
afterAll(async () => {
  for (const s of sockets) s.close()
  await b.close()
  await a.close()
})

async function connect(app: TestApp, auth: Parameters<typeof connectSocket>[1]) {
  const socket = await connectSocket(app.url, auth)
  sockets.push(socket)
  return socket
}

/** Hosting Myself: on show (the guest pages may follow it) from the start; `hidden` is neither published nor hosted. */
async function makeOpenHouse(listingId: number, hidden = false) {
  const property = await a.db
    .insertInto('reProperty')
    .values({
      propertyAddress1: '7 Lantern Way',
      propertyCity: 'Alpharetta',
      propertyState: 'Georgia',
      propertyZipCode: '30004',
      propertyCountry: 'United States',
      propertyType: 'Townhouse',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return a.db
    .insertInto('openHouse')
    .values({
      rePropertyId: property.id,
      listingReAgentId: listingId,
      scheduledByReAgentId: listingId,
      hostingReAgentId: hidden ? null : listingId,
      openHouseFor: 'Sale',
      scheduledStartTime: '10:00 AM',
      scheduledEndTime: '12:00 PM',
      publishLevel: hidden ? 'Open To All' : 'Hosting Myself',
      publishLevelId: hidden ? '-1' : '0',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

describe('sockets', () => {
  it('delivers an event emitted by another API process through Redis', async () => {
    const { token, agent } = await makeAgent(a.db)
    const socket = await connect(a, { token })
    const arriving = nextEvent(socket, 'stats.changed')
    b.app.deps.realtime.emit(rooms.agent(agent.id), 'stats.changed', { reAgentId: agent.id })
    const event = await arriving
    expect(event).toEqual({ type: 'stats.changed', at: expect.any(String), data: { reAgentId: agent.id } })
  })

  it('delivers, in order, every event another process emits in one turn (they go to Redis in one write)', async () => {
    const { token, agent } = await makeAgent(a.db)
    const socket = await connect(a, { token })
    const seen = collect(socket, 'stats.changed')
    for (const n of [1, 2, 3])
      b.app.deps.realtime.emit(rooms.agent(agent.id), 'stats.changed', { reTeamId: n })
    await expect.poll(() => seen.map((e) => e.data.reTeamId)).toEqual([1, 2, 3])
    // And the next turn's, after the first has gone out.
    b.app.deps.realtime.emit(rooms.agent(agent.id), 'stats.changed', { reTeamId: 4 })
    await expect.poll(() => seen.length).toBe(4)
  })

  it('puts an agent in its market rooms and not in another firm’s', async () => {
    const { token } = await makeAgent(a.db, { brokerFirmLicense: 'FIRM-A' })
    const socket = await connect(a, { token })
    const seen = collect(socket, 'opportunity.published')
    const ref = { openHouseId: 1, publishLevel: 'Market Center', publishLevelId: 'FIRM-B' }
    b.app.deps.realtime.emit(rooms.marketFirm('FIRM-B'), 'opportunity.published', ref)
    b.app.deps.realtime.emit(rooms.marketFirm('FIRM-A'), 'opportunity.published', {
      ...ref,
      publishLevelId: 'FIRM-A',
    })
    await expect.poll(() => seen.length).toBe(1)
    expect(seen[0]?.data.publishLevelId).toBe('FIRM-A')
  })

  it('ends a session’s sockets in every API process the moment it is signed out', async () => {
    const { agent, token } = await makeAgent(a.db)
    const here = await connect(a, { token })
    const there = await connect(b, { token })
    const ended = (socket: TestSocket) =>
      new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)))
    const [hereEnded, thereEnded] = [ended(here), ended(there)]
    const heard = collect(there, 'stats.changed')

    expect((await a.call('POST', '/signing/signout', { token })).status).toBe(200)
    expect(await hereEnded).toBe('io server disconnect')
    expect(await thereEnded).toBe('io server disconnect')
    // Nothing reaches the signed-out agent's room afterwards.
    a.app.deps.realtime.emit(rooms.agent(agent.id), 'stats.changed', {})
    await new Promise((r) => setTimeout(r, 300))
    expect(heard).toEqual([])
    await expect(connect(a, { token })).rejects.toThrow('SESSION_EXPIRED')
  })

  it('refuses a handshake without a valid session token', async () => {
    await expect(connectSocket(a.url, { token: 'abcdefghijklmnopqrstuvwxyz234567' })).rejects.toThrow(
      'SESSION_EXPIRED',
    )
  })

  it('lets the listing agent watch its open house and refuses another agent', async () => {
    const listing = await makeAgent(a.db)
    const other = await makeAgent(a.db)
    const openHouse = await makeOpenHouse(listing.agent.id)
    const mine = await connect(a, { token: listing.token })
    const theirs = await connect(a, { token: other.token })
    expect(await mine.emitWithAck('watch', { openHouseId: openHouse.id })).toEqual({ ok: true })
    expect(await theirs.emitWithAck('watch', { openHouseId: openHouse.id })).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN' },
    })
    const arriving = nextEvent(mine, 'feedback.submitted')
    b.app.deps.realtime.emit(
      rooms.openHouse(openHouse.id),
      'feedback.submitted',
      { openHouseId: openHouse.id, feedbackId: 9 },
      openHouse.id,
    )
    expect((await arriving).openHouseId).toBe(openHouse.id)
  })

  it('lets a guest page join only its open house’s public room', async () => {
    const listing = await makeAgent(a.db)
    const openHouse = await makeOpenHouse(listing.agent.id)
    const guest = await connect(b, { openHouseId: openHouse.id })
    const seen = collect(guest, 'attendee.added')
    const added = {
      openHouseId: openHouse.id,
      firstName: 'Sam',
      lastInitial: 'V',
      signedInAt: new Date().toISOString(),
    }
    a.app.deps.realtime.emit(rooms.openHousePublic(openHouse.id), 'attendee.added', added, openHouse.id)
    a.app.deps.realtime.emit(rooms.openHouse(openHouse.id), 'attendee.added', {
      ...added,
      firstName: 'Private',
    })
    await expect.poll(() => seen.length).toBe(1)
    expect(seen[0]?.data.firstName).toBe('Sam')
    expect(await guest.emitWithAck('watch', { openHouseId: openHouse.id })).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN' },
    })
    await expect(connectSocket(a.url, { openHouseId: 999_999 })).rejects.toThrow('NOT_FOUND')
    // Neither published nor hosted: not on show, so no guest page follows it.
    const hidden = await makeOpenHouse(listing.agent.id, true)
    await expect(connectSocket(a.url, { openHouseId: hidden.id })).rejects.toThrow('NOT_FOUND')
  })
})
