import fs from 'node:fs'
import path from 'node:path'
import { DOOR_SIGN_CALL } from '@porchlight/shared/rules/door-sign'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { decodeQrOn } from '../support/qr.ts'

let t: TestApp
/** Set SCREENSHOTS=dir to keep pictures of the door sign on screen, on a phone and printed. */
const shots = process.env.SCREENSHOTS

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)

const card = (page: Page, street: string) => page.getByRole('article', { name: street })

async function snap(page: Page, name: string) {
  if (!shots) return
  fs.mkdirSync(shots, { recursive: true })
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })
}

describe('the door sign', () => {
  it('opens from the card with the address and a QR code of the guest sign-in page, prints on one Letter page, and downloads as PDF', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Greta', lastName: 'Doorman' })
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const details = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, {
      token: listing.token,
    })
    const street: string = details.body.data.reProperty.propertyAddress1
    const guestUrl = `${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${listing.agent.id}&from=qrcode`

    const page = await signedIn(listing)
    await page.goto(`${t.url}/openhouses?activeSection=upcomingOH`)
    await card(page, street).waitFor()
    await snap(page, 'door-sign-card')
    await card(page, street)
      .getByRole('button', { name: `More actions for ${street}` })
      .click()
    await page.getByRole('menuitem', { name: 'Door sign' }).click()
    await page.waitForURL(`${t.url}/openhouses/schedule/${oh.id}/sign`)
    await page.getByRole('heading', { level: 1, name: 'Door sign' }).waitFor()

    const sign = page.getByRole('article', { name: `Door sign for ${street}` })
    await sign.getByRole('heading', { name: street }).waitFor()
    const text = await sign.textContent()
    expect(text).toContain('Porchlight')
    expect(text).toContain('Alpharetta, Georgia 30004')
    expect(text).toContain('1:00 PM – 3:00 PM')
    expect(text).toContain(DOOR_SIGN_CALL)
    expect(text).toContain('Your host: Greta Doorman')
    const qr = sign.getByRole('img', { name: `QR code opening the guest sign-in page for ${street}` })
    await qr.waitFor()
    expect(await decodeQrOn(qr)).toBe(guestUrl)
    await snap(page, 'door-sign-1280')

    await expectAccessible(page, 'Door sign', { alsoAtPhoneWidth: true })
    if (shots) {
      await page.setViewportSize({ width: 390, height: 844 })
      await snap(page, 'door-sign-390')
      await page.setViewportSize({ width: 1280, height: 900 })
    }

    // Printed: no app chrome, no buttons, and the sign is Letter less its margins (7.5 × 10 in).
    await page.emulateMedia({ media: 'print' })
    expect(await page.locator('.site-header').isVisible()).toBe(false)
    expect(await page.locator('.app__footer').isVisible()).toBe(false)
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false)
    const box = await sign.boundingBox()
    expect(box && { width: Math.round(box.width), height: Math.round(box.height) }).toEqual({
      width: 720,
      height: 960,
    })
    expect(await decodeQrOn(qr)).toBe(guestUrl)
    await snap(page, 'door-sign-print')
    const pdf = await page.pdf({ preferCSSPageSize: true })
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1)
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 612 792\]/)
    await page.emulateMedia({ media: 'screen' })

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PDF' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^door-sign-[a-z0-9-]+\.pdf$/)
    expect(
      fs
        .readFileSync(await download.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
  })

  it('is not offered to an agent who may only claim the open house', async () => {
    const listing = await makePlannedAgent(t.db)
    const other = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing)
    expect((await publish(t, listing, oh.id)).status).toBe(200)

    const page = await signedIn(other)
    await page.goto(`${t.url}/openhouses/schedule/${oh.id}/sign`)
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor()
  })

  it('prints no sign that guests could not use yet', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Market Center' })

    const page = await signedIn(listing)
    await page.goto(`${t.url}/openhouses/schedule/${oh.id}/sign`)
    await page.getByRole('heading', { level: 1, name: 'Door sign' }).waitFor()
    await page.getByText('Guests can sign in once the open house is published.').waitFor()
    expect(await page.getByRole('img', { name: /QR code/ }).count()).toBe(0)
  })
})
