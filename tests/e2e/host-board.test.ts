import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import jsQR from 'jsqr'
import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { type TcpRelay, tcpRelay } from '../support/tcp-relay.ts'

// The host's attendee board held in one hand at the door, and what it says when the server goes away.

let t: TestApp
/** The browser reaches the app through this relay, which the tests stop and start as "the server". */
let server: TcpRelay

beforeAll(async () => {
  t = await buildTestApp({ web: true })
  server = await tcpRelay(t.url)
})
afterAll(async () => {
  await server?.stop()
  await t?.close()
})

const { signedIn } = browserHarness(() => ({ url: server.url, call: t.call }))

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
const shots = process.env.SCREENSHOTS

async function snap(page: Page, name: string) {
  if (!shots) return
  fs.mkdirSync(shots, { recursive: true })
  await page.waitForTimeout(400)
  await page.screenshot({ path: path.join(shots, `host-board-${name}.png`) })
}

function guestSignIn(openHouseId: number, firstName: string, lastName: string, timeline: string) {
  return t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: firstName,
      prospectLastName: lastName,
      prospectEmailId: `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
      prospectPhoneNumber: '404 555 0177',
      workingWithREAgentFlag: 'false',
      homeBuyingTimelines: timeline,
      openHouseId,
      clientRequestId: randomUUID(),
      listingAgentConsent: 'false',
    },
  })
}

async function openBoard(page: Page, oh: { id: number; rePropertyId: number }) {
  await page.goto(`${server.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`)
  await page.getByRole('heading', { level: 1, name: 'Manage Attendees' }).waitFor()
  await liveStatusIs(page, 'Live')
}

const liveStatus = (page: Page) => page.getByTestId('live-status')
const liveStatusIs = (page: Page, text: string | RegExp, timeout?: number) =>
  liveStatus(page)
    .filter({ hasText: text instanceof RegExp ? text : new RegExp(`^${text}$`) })
    .waitFor({ timeout })

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)

describe("the host's board on a phone", () => {
  it('shows the newest guests as cards above the fold, the actions in one menu, and a QR code to scan', async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Pia', lastName: 'Phone' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    expect((await guestSignIn(oh.id, 'Early', 'Bird', 'Just Exploring')).status).toBe(201)
    expect((await guestSignIn(oh.id, 'Nora', 'Newest', '1-3 Months')).status).toBe(201)

    const page = await signedIn(host, PHONE)
    await openBoard(page, oh)
    const first = page.getByTestId('attendee-card').first()
    await first.waitFor()
    expect(await first.getByRole('heading').textContent()).toBe('Nora Newest')
    const box = await first.boundingBox()
    expect(box && box.y + box.height).toBeLessThanOrEqual(844)
    expect(await first.textContent()).toContain('Not working with an agent')
    expect(await first.textContent()).toContain('1-3 Months')
    expect(await first.getByRole('link', { name: /^Call Nora Newest/ }).getAttribute('href')).toBe(
      'tel:4045550177',
    )
    expect(await first.getByRole('link', { name: /^Email Nora Newest/ }).getAttribute('href')).toMatch(
      /^mailto:nora-[0-9a-f]{8}@example\.com$/,
    )
    expect(await page.getByTestId('attendee-count').textContent()).toBe('2')
    expect(await page.getByRole('table').count()).toBe(0)
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390)
    await snap(page, '390')

    // The actions sit behind one menu, which the keyboard opens, walks and closes.
    const menuButton = page.getByRole('button', { name: 'Board actions' })
    await menuButton.focus()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('menu')
    await menu.waitFor()
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Add Attendee',
      'Kiosk mode',
      'Door sign',
      'Send OH Report',
      'Send Attendee Report',
      'Back To Open Houses',
    ])
    await page.keyboard.press('ArrowDown')
    await snap(page, '390-menu')
    await expectAccessible(page, "the board's Actions menu on a phone")
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'detached' })
    // The menu hands focus back to its button on the frame after it closes (react-aria's FocusScope).
    await expect.poll(() => menuButton.evaluate((el) => el === document.activeElement)).toBe(true)

    // Show QR fills the screen with the guest sign-in code, which a camera reads as the guest URL.
    await page.getByRole('button', { name: 'Show QR' }).click()
    const dialog = page.getByRole('dialog', { name: 'Scan to sign in' })
    const code = dialog.getByRole('img', { name: /QR code opening the guest sign-in page/ })
    await code.waitFor()
    await code.evaluate((img: HTMLImageElement) => img.decode())
    const codeBox = await code.boundingBox()
    expect(codeBox?.width).toBeGreaterThanOrEqual(300)
    const png = PNG.sync.read(await code.screenshot())
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
    expect(decoded?.data).toBe(
      `${server.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`,
    )
    await snap(page, '390-qr')
    await expectAccessible(page, 'the Show QR dialog on a phone')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })

    await expectAccessible(page, "the host's board on a phone", { alsoAtPhoneWidth: true })

    // A menu item that navigates stays in the app.
    await menuButton.click()
    await page.getByRole('menuitem', { name: 'Add Attendee' }).click()
    await page.waitForURL(
      `${server.url}/prospects/search?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}`,
    )
  })

  it('keeps the table on a wide screen and never scrolls sideways at any width', async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Wade', lastName: 'Wide' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    expect((await guestSignIn(oh.id, 'Tabitha', 'Table', 'Now')).status).toBe(201)

    const page = await signedIn(host)
    await openBoard(page, oh)
    await page.getByRole('row', { name: /Tabitha Table/ }).waitFor()
    expect(await page.getByRole('link', { name: 'Add Attendee' }).isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Show QR' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Door sign' }).getAttribute('href')).toBe(
      `/openhouses/schedule/${oh.id}/sign`,
    )
    await snap(page, '1280')
    await page.getByRole('button', { name: 'Show QR' }).click()
    await page.getByRole('dialog').getByRole('img').waitFor()
    await snap(page, '1280-qr')
    await expectAccessible(page, 'the Show QR dialog')
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    await expectAccessible(page, "the host's board", { alsoAtPhoneWidth: true })

    for (const width of [320, 390, 600, 767, 768, 1024, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await page.waitForTimeout(100)
      expect(await scrollWidth(page), `the page's width at ${width} px`).toBeLessThanOrEqual(width)
    }
    expect(await page.getByRole('table').count()).toBe(1)
  })
})

describe('honest live state', () => {
  it('says it is reconnecting when the server goes away, says so when Refresh fails, and is live again when it is back', async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Otto', lastName: 'Outage' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const page = await signedIn(host, PHONE)
    await openBoard(page, oh)

    await server.stop()
    try {
      await liveStatusIs(
        page,
        /^(Reconnecting…|Offline — showing what we had at \d{1,2}:\d{2} [AP]M)$/,
        5_000,
      )
      await snap(page, 'reconnecting')
      await expectAccessible(page, 'the board reconnecting')
      // A guest signs in meanwhile (the app itself still runs); the board cannot hear it.
      expect((await guestSignIn(oh.id, 'Missed', 'Meanwhile', 'Now')).status).toBe(201)
      await page.getByRole('button', { name: 'Refresh' }).click()
      await page
        .getByRole('alert')
        .filter({ hasText: /^Couldn't refresh the attendees\. Showing what we had at \d{1,2}:\d{2} [AP]M\./ })
        .waitFor()
      // socket.io keeps trying; after a while the board says how old what it shows is.
      await liveStatusIs(page, /^Offline — showing what we had at \d{1,2}:\d{2} [AP]M$/, 15_000)
      await snap(page, 'offline')
      await expectAccessible(page, 'the board offline, its Refresh failed', { alsoAtPhoneWidth: true })
    } finally {
      await server.start()
    }

    // Back: live again, and what was missed is fetched.
    await liveStatusIs(page, 'Live', 15_000)
    await page.getByTestId('attendee-card').filter({ hasText: 'Missed Meanwhile' }).waitFor()
    expect(await page.getByTestId('attendee-count').textContent()).toBe('1')

    // The next guest arrives live: a toast a sighted host sees, and the card highlighted.
    expect((await guestSignIn(oh.id, 'Luca', 'Live', 'Now')).status).toBe(201)
    await page.locator('.live-toasts__toast', { hasText: 'Luca L. just signed in.' }).waitFor()
    const card = page.getByTestId('attendee-card').filter({ hasText: 'Luca Live' })
    await card.waitFor()
    expect(await card.getByText('Just signed in').isVisible()).toBe(true)
    await snap(page, 'toast')
    await expectAccessible(page, 'the board showing a live change as a toast')
  }, 90_000)
})
