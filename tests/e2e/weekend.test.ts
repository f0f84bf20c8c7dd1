// Issue 32 "a weekend" in the browser: a new open house starts at 1:00–4:00 PM in 15-minute steps; after
// "Hosting Myself" the confirmation page offers Show QR, Door sign and Add another day; a clone says it
// is a copy.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { daysFromNow, makePlannedAgent, propertyFields } from '../support/factories.ts'
import { decodeQrOn } from '../support/qr.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('button', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

/** 'Sat 12/5' for an ISO date. */
function shortDay(iso: string) {
  const d = new Date(`${iso}T12:00:00Z`)
  const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' }).format(d)
  return `${weekday} ${d.getUTCMonth() + 1}/${d.getUTCDate()}`
}

describe('a weekend in the browser', { timeout: 120_000 }, () => {
  it('schedules with 1:00–4:00 PM ready, offers Show QR and Door sign, adds Sunday, and a clone says it is a copy', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Wren', lastName: 'Weekend' })
    const item = await t.call('POST', '/reinventorymgmt/saveREInventory', {
      token: agent.token,
      body: {
        owningREAgentId: agent.agent.id,
        rePropertyDTO: propertyFields(),
        reInventoryPropertyStatus: 'Property Created',
      },
    })
    expect(item.status).toBe(201)
    const page = await signedIn(agent)
    await page.goto(
      `${t.url}/openhouses/schedule?rePropertyId=${item.body.data.reProperty.id}&reInventoryId=${item.body.data.id}`,
    )
    await expect.poll(() => heading(page)).toBe('Schedule Open House')

    // The usual afternoon is there already, and the times run in 15-minute steps.
    expect(await page.getByRole('button', { name: /Start Time/ }).textContent()).toContain('1:00 PM')
    expect(await page.getByRole('button', { name: /End Time/ }).textContent()).toContain('4:00 PM')
    await choose(page, 'Open House For', 'Sale')
    const saturday = daysFromNow(4)
    const [year, month, day] = saturday.split('-')
    await page.getByRole('spinbutton', { name: /month/i }).first().click()
    await page.keyboard.type(`${month}${day}${year}`)
    await choose(page, 'Start Time', '1:30 PM')
    await choose(page, 'Publish Level', 'Hosting Myself')
    await page.getByRole('button', { name: 'Save' }).click()

    await page.waitForURL(/\/openhouses\/schedule\/\d+\/confirm\?/)
    await expect.poll(() => heading(page)).toBe('Open House Scheduled')
    const firstId = Number(new URL(page.url()).pathname.split('/')[3])
    await expectAccessible(page, 'confirmation after Hosting Myself')
    const saved = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${firstId}`, { token: agent.token })
    expect(saved.body.data).toMatchObject({
      scheduledDate: saturday,
      scheduledStartTime: '1:30 PM',
      scheduledEndTime: '4:00 PM',
    })

    // Show QR: the code guests scan opens this open house's sign-in page.
    await page.getByRole('button', { name: 'Show QR' }).click()
    const dialog = page.getByRole('dialog')
    const img = dialog.getByRole('img', { name: /QR code opening the guest sign-in page/ })
    await img.waitFor()
    const decoded = await decodeQrOn(img)
    expect(decoded).toContain(`/${firstId}`)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await page.getByRole('link', { name: 'Door sign' }).getAttribute('href')).toBe(
      `/openhouses/schedule/${firstId}/sign`,
    )

    // Add another day: the same times on the next free day, and its own confirmation.
    await page.getByRole('button', { name: 'Add another day' }).click()
    await page.waitForURL(
      (url) => !url.pathname.includes(`/${firstId}/`) && url.pathname.endsWith('/confirm'),
    )
    const secondId = Number(new URL(page.url()).pathname.split('/')[3])
    const sunday = daysFromNow(5)
    const second = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${secondId}`, {
      token: agent.token,
    })
    expect(second.body.data).toMatchObject({
      scheduledDate: sunday,
      scheduledStartTime: '1:30 PM',
      scheduledEndTime: '4:00 PM',
      rePropertyId: item.body.data.reProperty.id,
    })
    await page.getByRole('button', { name: 'Show QR' }).waitFor()

    // Clone from the confirmation page: the copy opens titled as the copy of Sunday.
    await page.getByRole('button', { name: 'Clone', exact: true }).click()
    await page.waitForURL(/\/openhouses\/schedule\/\d+\/edit$/)
    await expect.poll(() => heading(page)).toBe(`Copy of ${shortDay(sunday)} open house`)

    // Clone from the card: the copy opens as what it is.
    await page.goto(`${t.url}/openhouses?activeSection=upcomingOH`)
    await page.getByRole('tab', { name: 'My Upcoming Open Houses', selected: true }).waitFor()
    const cards = page.getByRole('article')
    await expect.poll(() => cards.count()).toBe(3)
    await page.getByText(`Copy of ${shortDay(sunday)} open house`).waitFor()
    const saturdayCard = page.locator(`article[data-open-house-id="${firstId}"]`)
    await saturdayCard.getByRole('button', { name: /More actions for/ }).click()
    await page.getByRole('menuitem', { name: 'Clone', exact: true }).click()
    await page.waitForURL((url) => /\/edit$/.test(url.pathname) && !url.pathname.includes(`/${firstId}/`))
    const label = `Copy of ${shortDay(saturday)} open house`
    await expect.poll(() => heading(page)).toBe(label)
    await expectAccessible(page, 'a clone')
  })
})
