import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// A visitor on a flickering signal: the guest pages come from the phone's cache once seen, and a
// sign-in made with no connection is sent once when the phone is back.
let t: TestApp
const browser = browserHarness(() => t)

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(() => t.close())

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

describe('the guest pages on a weak signal', () => {
  it('open from the cache when the phone is offline, and a sign-in made there is sent once later', {
    timeout: 60_000,
  }, async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Wren', lastName: 'Host' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const landing = `${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`
    const welcome = 'Welcome to our Open House'

    // First scan: the page installs its service worker.
    const page = await browser.newPage(phone)
    await page.goto(landing)
    await page.getByRole('heading', { level: 1, name: welcome }).waitFor()
    await page.evaluate(() => navigator.serviceWorker.ready)
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
    await expectAccessible(page, 'the guest landing page')

    // Second scan, online: the page and every script come from the phone, not the network.
    const fromNetwork: string[] = []
    page.on('response', (response) => {
      if (/\.(js|css)$/.test(new URL(response.url()).pathname) && !response.fromServiceWorker())
        fromNetwork.push(response.url())
    })
    await page.reload()
    await page.getByRole('heading', { level: 1, name: welcome }).waitFor()
    expect(fromNetwork).toEqual([])

    // No signal at all: the page still opens, with the open house, and takes a sign-in.
    await page.context().setOffline(true)
    const offline = await page.reload()
    expect(offline?.fromServiceWorker()).toBe(true)
    await page.getByRole('heading', { level: 1, name: welcome }).waitFor()
    await expectAccessible(page, 'the guest landing page, offline')
    await page.getByRole('link', { name: 'Sign In' }).first().click()
    await page.getByRole('textbox', { name: 'First Name', exact: true }).waitFor()
    await expectAccessible(page, 'the guest sign-in form, offline')
    await page.getByRole('textbox', { name: 'First Name', exact: true }).fill('Ola')
    await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Offline')
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ola.offline@example.com')
    await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('404 555 0142')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.getByText('Your sign-in is saved on this phone.').waitFor()
    await expectAccessible(page, 'the guest sign-in kept on the phone')
    const attendees = () =>
      t.db.selectFrom('openHouseAttendee').select('id').where('openHouseId', '=', oh.id).execute()
    expect(await attendees()).toEqual([])

    // Back online, the next look at the page sends it, once.
    await page.context().setOffline(false)
    await page.goto(landing)
    await expect.poll(async () => (await attendees()).length, { timeout: 20_000 }).toBe(1)
    await page.reload()
    await page.getByRole('heading', { level: 1, name: welcome }).waitFor()
    await page.waitForTimeout(1000)
    expect(await attendees()).toHaveLength(1)
  })
})
