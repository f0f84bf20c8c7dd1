import { randomUUID } from 'node:crypto'
import { rooms } from '@porchlight/shared'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)

/** The server side of the agents' sockets in this process. */
function serverSockets(agentIds: number[]) {
  return [...t.app.deps.realtime.io.of('/').sockets.values()].filter(
    (socket) => socket.data.agentId !== undefined && agentIds.includes(socket.data.agentId),
  )
}

/** The sockets stay connected but hear nothing: every event from now on is missed. */
function deafen(agentIds: number[]) {
  for (const socket of serverSockets(agentIds)) {
    for (const room of [...socket.rooms]) if (room !== socket.id) void socket.leave(room)
  }
}

/** Drops the connections under the sockets, as a network blip does; socket.io-client reconnects. */
function dropConnections(agentIds: number[]) {
  for (const socket of serverSockets(agentIds)) socket.conn.close()
}

function guestSignIn(openHouseId: number, firstName: string) {
  return t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: firstName,
      prospectLastName: 'Guest',
      prospectEmailId: `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
      prospectPhoneNumber: '404 555 0177',
      workingWithREAgentFlag: 'false',
      openHouseId,
      clientRequestId: randomUUID(),
      listingAgentConsent: 'false',
    },
  })
}

/** The page's live indicator says `text` (the layout's, on every signed-in page). */
const liveStatusIs = (page: Page, text: string) =>
  page
    .getByTestId('live-status')
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor()

/** Every text the live indicator shows from now on, in order. */
async function recordLiveTile(board: Page) {
  const tile = board.getByTestId('live-status')
  await tile.evaluate((dd) => {
    const seen: string[] = []
    ;(window as unknown as { liveTile: string[] }).liveTile = seen
    new MutationObserver(() => seen.push(dd.textContent ?? '')).observe(dd, {
      childList: true,
      characterData: true,
      subtree: true,
    })
  })
  return () => board.evaluate(() => (window as unknown as { liveTile: string[] }).liveTile)
}

const count = (page: Page, testId: string) => page.getByTestId(testId).textContent()

describe('the live bridge', () => {
  it('shows after a reconnect what changed while the socket was cut off, and the board joins its room again', async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Rae', lastName: 'Host' })
    const watcher = await makePlannedAgent(t.db, { firstName: 'Wes', lastName: 'Watcher' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })

    const board = await signedIn(host)
    await board.goto(`${t.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`)
    await liveStatusIs(board, 'Live')
    expect(await count(board, 'attendee-count')).toBe('0')
    await expectAccessible(board, 'the attendee board, live')

    const search = await signedIn(watcher)
    await search.goto(`${t.url}/openhouses?activeSection=searchOH`)
    await search.getByText('No open houses are offered to you right now.').waitFor()
    await expectAccessible(search, 'Search Open Houses, empty')

    // Cut off: a guest signs in at the door and a new open house is offered; neither page hears it.
    await expect.poll(() => serverSockets([host.agent.id, watcher.agent.id]).length).toBe(2)
    deafen([host.agent.id, watcher.agent.id])
    expect((await guestSignIn(oh.id, 'Missed')).status).toBe(201)
    const offered = await scheduleOpenHouse(t, host)
    expect((await publish(t, host, offered.id)).status).toBe(200)
    const street: string = (
      await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${offered.id}`, { token: host.token })
    ).body.data.reProperty.propertyAddress1
    await board.waitForTimeout(1_500)
    expect(await count(board, 'attendee-count')).toBe('0')
    expect(await search.getByRole('article', { name: street }).count()).toBe(0)

    // The connections drop and come back: both pages refetch what they show.
    const tile = await recordLiveTile(board)
    dropConnections([host.agent.id, watcher.agent.id])
    await board.getByRole('row', { name: /Missed Guest/ }).waitFor()
    await expect.poll(() => count(board, 'attendee-count')).toBe('1')
    await search.getByRole('article', { name: street }).waitFor()
    await liveStatusIs(board, 'Live')
    expect(await tile()).toContain('Reconnecting…')
    await expectAccessible(board, 'the attendee board after a reconnect')
    await expectAccessible(search, 'Search Open Houses after a reconnect', { alsoAtPhoneWidth: true })

    // The board is in its room again: the next guest appears live, highlighted and read out.
    expect((await guestSignIn(oh.id, 'Live')).status).toBe(201)
    const row = board.getByRole('row', { name: /Live Guest/ })
    await row.waitFor()
    expect(await row.getByText('Just signed in').isVisible()).toBe(true)
    await board.getByText('Live G. just signed in.').waitFor({ state: 'attached' })
    await expectAccessible(board, 'the attendee board with a guest just signed in', {
      alsoAtPhoneWidth: true,
    })
  }, 60_000)

  it('refetches the dashboard statistics once for a burst of stats.changed, aborting nothing', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Bea', lastName: 'Burst' })
    const page = await signedIn(agent)
    const statistics: string[] = []
    const failed: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/getDashboardStatistics/')) statistics.push(request.url())
    })
    page.on('requestfailed', (request) => {
      if (request.url().includes('/api/')) failed.push(`${request.url()} ${request.failure()?.errorText}`)
    })
    await page.goto(`${t.url}/dashboard`)
    await page.getByRole('table', { name: 'Overall Open House Summary' }).waitFor()
    await page.waitForLoadState('networkidle')
    // Its socket is connected (the handshake joins its room).
    await expect.poll(() => serverSockets([agent.agent.id]).length).toBe(1)
    const before = statistics.length

    for (let i = 0; i < 40; i++) {
      t.app.deps.realtime.emit(rooms.agent(agent.agent.id), 'stats.changed', { reAgentId: agent.agent.id })
    }
    await expect.poll(() => statistics.length).toBeGreaterThan(before)
    await page.waitForTimeout(1_500)
    await page.waitForLoadState('networkidle')
    expect(statistics.length - before).toBeLessThanOrEqual(2)
    expect(failed).toEqual([])
  })
})
