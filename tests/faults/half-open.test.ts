// A connection that dies without a word, as a phone changing networks or a NAT timeout kills it: the
// server's side is gone, the browser's side stays open and hears nothing (no FIN, no RST). The guest
// page and the host's board notice by the server's missed ping (the server's own pingInterval +
// pingTimeout, 25 s + 20 s: no shortened settings), say so, reconnect and fetch what they missed.
import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type TcpRelay, tcpRelay } from '../support/tcp-relay.ts'

/** What the issue allows from the connection's death to the guest on both screens. */
const NOTICED_MS = 60_000

let t: TestApp
/** The browsers reach the app only through this relay. */
let relay: TcpRelay

beforeAll(async () => {
  t = await buildTestApp({ web: true })
  relay = await tcpRelay(t.url)
})
afterAll(async () => {
  await relay?.stop()
  await t?.close()
})

const { signedIn, newPage } = browserHarness(() => ({ url: relay.url, call: t.call }))

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

/** Every text the board's live indicator shows from now on, in order. */
async function recordLiveStatus(board: Page) {
  await board.getByTestId('live-status').evaluate((status) => {
    const seen: string[] = []
    ;(window as unknown as { liveStatus: string[] }).liveStatus = seen
    new MutationObserver(() => seen.push(status.textContent ?? '')).observe(status, {
      childList: true,
      characterData: true,
      subtree: true,
    })
  })
  return () => board.evaluate(() => (window as unknown as { liveStatus: string[] }).liveStatus)
}

describe('a connection that dies without a close', () => {
  it('is noticed by the guest page and the host board, which show the next guest within 60 s', async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Hal', lastName: 'Halfopen' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    expect((await guestSignIn(oh.id, 'Before')).status).toBe(201)

    const board = await signedIn(host, { viewport: { width: 390, height: 844 }, isMobile: true })
    await board.goto(`${relay.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`)
    await board
      .getByTestId('live-status')
      .filter({ hasText: /^Live$/ })
      .waitFor()
    await board.getByTestId('attendee-card').filter({ hasText: 'Before Guest' }).waitFor()

    const guest = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true })
    // The guest page is in its open house's room once the server accepts its socket.io connect.
    const joined = new Promise<void>((resolve) => {
      guest.on('websocket', (ws) =>
        ws.on('framereceived', ({ payload }) => {
          if (String(payload).startsWith('40{')) resolve()
        }),
      )
    })
    await guest.goto(
      `${relay.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}`,
    )
    const visitor = (name: string) =>
      guest
        .getByRole('region', { name: /^Signed in today/ })
        .getByRole('listitem')
        .filter({ hasText: name })
    await visitor('Before G.').waitFor()
    await joined
    // The page is live: a guest now appears at once.
    expect((await guestSignIn(oh.id, 'Warmup')).status).toBe(201)
    await visitor('Warmup G.').waitFor({ timeout: 10_000 })
    const states = await recordLiveStatus(board)

    // Every WebSocket through the relay dies on the server's side; the browsers' sides stay open.
    relay.freezeWebSockets()
    const frozeAt = Date.now()
    expect((await guestSignIn(oh.id, 'Afterwards')).status).toBe(201)

    await Promise.all([
      visitor('Afterwards G.').waitFor({ timeout: NOTICED_MS }),
      board
        .getByTestId('attendee-card')
        .filter({ hasText: 'Afterwards Guest' })
        .waitFor({ timeout: NOTICED_MS }),
    ])
    console.info(`a half-open connection noticed and the guest shown after ${Date.now() - frozeAt} ms`)
    expect(Date.now() - frozeAt).toBeLessThan(NOTICED_MS)
    expect(await states()).toContain('Reconnecting…')
    await board
      .getByTestId('live-status')
      .filter({ hasText: /^Live$/ })
      .waitFor()

    // Live again: the next guest arrives at once on both.
    expect((await guestSignIn(oh.id, 'Next')).status).toBe(201)
    await Promise.all([
      visitor('Next G.').waitFor({ timeout: 10_000 }),
      board.getByTestId('attendee-card').filter({ hasText: 'Next Guest' }).waitFor({ timeout: 10_000 }),
    ])
  }, 120_000)
})
