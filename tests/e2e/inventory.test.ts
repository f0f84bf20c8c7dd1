import {
  ADDRESS_LOCKED_REASON,
  UPCOMING_OPEN_HOUSE_REASON,
  US_ZIP_NOT_VALID,
  ZIP_PLUS4_NOT_VALID,
} from '@porchlight/shared'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible, tabTo } from '../support/browser.ts'
import { makePlannedAgent, scheduleFields } from '../support/factories.ts'

let t: TestApp

beforeAll(async () => {
  // No MAP_STYLE_URL: maps are off, so addresses are listed where a map would be.
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

/** The app the browser talks to: `t`, or for a moment the same data served with maps on. */
let current: TestApp | undefined
const { signedIn } = browserHarness(() => current ?? t)

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()

async function arrive(page: Page, url: string | RegExp, title: string) {
  await page.waitForURL(url)
  await expect.poll(() => heading(page)).toBe(title)
}

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true })

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('button', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

const card = (page: Page, street: string) => page.getByRole('article', { name: street })

/** The reason a disabled button or link gives (its accessible description). */
async function reasonOf(page: Page, control: ReturnType<Page['getByRole']>) {
  expect(await control.getAttribute('aria-disabled')).toBe('true')
  const id = await control.getAttribute('aria-describedby')
  return page.locator(`[id="${id}"]`).textContent()
}

describe('the inventory screens', () => {
  it('says what is wrong with a zip and keeps what was typed, corrects the address, and locks it once an open house is scheduled', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Ines' })
    const page = await signedIn(agent)
    const street = `${Math.floor(Math.random() * 900) + 100} Juniper Row`

    await page.goto(`${t.url}/reinventory/new`)
    await arrive(page, `${t.url}/reinventory/new`, 'Add Property To My Inventory')
    await field(page, 'Address Line 1').fill(street)
    await field(page, 'City').fill('Roswell')
    await choose(page, 'Select a state', 'Georgia')
    await field(page, 'County').fill('Fulton')
    await field(page, 'Zip Code').fill('123456')
    await field(page, 'Zip+4').fill('12')
    await choose(page, 'Property Type', 'Single Family Home')
    await field(page, 'Latitude').fill('34.0232')
    await field(page, 'Longitude').fill('-84.3616')
    await choose(page, 'Property Status', 'Property Created')
    await page.getByRole('button', { name: 'Save' }).click()

    await page.getByText(US_ZIP_NOT_VALID).waitFor()
    await page.getByText(ZIP_PLUS4_NOT_VALID).waitFor()
    expect(await field(page, 'Address Line 1').inputValue()).toBe(street)
    expect(await field(page, 'Zip Code').inputValue()).toBe('123456')
    expect(await field(page, 'County').inputValue()).toBe('Fulton')
    await expectAccessible(page, 'add property with a bad zip', { alsoAtPhoneWidth: true })

    // A province belongs to Canada: switching country empties the state and asks for a postal code.
    await choose(page, 'Country', 'Canada')
    await choose(page, 'Province or Territory', 'Ontario')
    await choose(page, 'Country', 'United States')
    // (The state select reads 'Select a state' again.)
    await choose(page, 'Select a state', 'Georgia')

    await field(page, 'Zip Code').fill('30075')
    await field(page, 'Zip+4').fill('1234')
    await page.getByRole('button', { name: 'Save' }).click()
    await arrive(page, `${t.url}/reinventory`, 'My Inventory')
    const item = card(page, street)
    await item.getByText('Roswell, Georgia 30075').waitFor()
    // Maps are off: the addresses are listed, and no map box is drawn.
    const addresses = page.getByRole('region', { name: 'Addresses in My Inventory' })
    await addresses.getByText(`${street}, Roswell, Georgia 30075-1234, United States`).waitFor()
    expect(await page.locator('.property-map__canvas, .map-pending').count()).toBe(0)
    await expectAccessible(page, 'my inventory', { alsoAtPhoneWidth: true })

    // The address is corrected on Update Property Status while no open house is scheduled.
    await item.getByRole('link', { name: `Edit ${street}` }).click()
    await arrive(page, /\/reinventory\/\d+\/edit$/, 'Update Property Status')
    const corrected = street.replace('Juniper Row', 'Juniper Road')
    await field(page, 'Address Line 1').fill(corrected)
    await field(page, 'Zip Code').fill('3007')
    await page.getByRole('button', { name: 'Update' }).click()
    await page.getByText(US_ZIP_NOT_VALID).waitFor()
    expect(await field(page, 'Address Line 1').inputValue()).toBe(corrected)
    await expectAccessible(page, 'update property status with the address', { alsoAtPhoneWidth: true })
    await field(page, 'Zip Code').fill('30076')
    await page.getByRole('button', { name: 'Update' }).click()
    await arrive(page, `${t.url}/reinventory`, 'My Inventory')
    const fixed = card(page, corrected)
    await fixed.getByText('Roswell, Georgia 30076').waitFor()
    const itemId = Number(
      (await fixed.getByRole('link', { name: `Edit ${corrected}` }).getAttribute('href'))?.match(/\d+/)?.[0],
    )
    const propertyId = (
      await t.call('GET', `/reinventorymgmt/getREInventoryDetails/${itemId}`, { token: agent.token })
    ).body.data.reProperty.id as number

    // An open house is scheduled: Delete is off and says why; Schedule Open House stays on (another day).
    const scheduled = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: agent.token,
      body: scheduleFields(propertyId, { reInventoryId: itemId }),
    })
    expect(scheduled.status).toBe(201)
    await page.reload()
    await arrive(page, `${t.url}/reinventory`, 'My Inventory')
    const locked = card(page, corrected)
    await locked.getByText('Open House Scheduled').waitFor()
    const del = locked.getByRole('button', { name: `Delete ${corrected}` })
    expect(await reasonOf(page, del)).toBe(UPCOMING_OPEN_HOUSE_REASON)
    const schedule = locked.getByRole('link', { name: `Schedule Open House ${corrected}` })
    expect(await schedule.getAttribute('href')).toMatch(/^\/openhouses\/schedule\?/)
    await tabTo(page, del)
    await page.getByRole('tooltip').filter({ hasText: UPCOMING_OPEN_HOUSE_REASON }).waitFor()
    await expectAccessible(page, 'my inventory with an open house scheduled', { alsoAtPhoneWidth: true })

    // The edit page keeps the status but no longer offers the address, and says why in words.
    await locked.getByRole('link', { name: `Edit ${corrected}` }).click()
    await arrive(page, /\/reinventory\/\d+\/edit$/, 'Update Property Status')
    await page.locator('.inventory-edit__note', { hasText: ADDRESS_LOCKED_REASON }).waitFor()
    await page.locator('.inventory-edit__note', { hasText: UPCOMING_OPEN_HOUSE_REASON }).waitFor()
    expect(await field(page, 'Address Line 1').count()).toBe(0)
    expect(await reasonOf(page, page.getByRole('button', { name: 'Delete' }))).toBe(
      UPCOMING_OPEN_HOUSE_REASON,
    )
    await expectAccessible(page, 'update property status, address locked', { alsoAtPhoneWidth: true })
    await choose(page, 'Property Status', 'Coming Soon')
    await page.getByRole('button', { name: 'Update' }).click()
    await arrive(page, `${t.url}/reinventory`, 'My Inventory')
    await card(page, corrected).getByText('Coming Soon').waitFor()
  }, 120_000)

  it('lists the open houses by address on the open house map page when maps are off, and links to it from nowhere', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Milo' })
    const item = await t.call('POST', '/reinventorymgmt/saveREInventory', {
      token: agent.token,
      body: {
        owningREAgentId: agent.agent.id,
        rePropertyDTO: {
          propertyAddress1: '48 Lantern Way',
          propertyCity: 'Alpharetta',
          propertyState: 'Georgia',
          propertyCounty: 'Fulton',
          propertyZipCode: '30004',
          propertyCountry: 'United States',
          propertyType: 'Condo',
        },
        reInventoryPropertyStatus: 'Property Created',
      },
    })
    const oh = await t.call('POST', '/openhousemgmt/saveOpenHouse', {
      token: agent.token,
      body: scheduleFields(item.body.data.reProperty.id, { reInventoryId: item.body.data.id }),
    })
    expect(oh.status).toBe(201)
    const page = await signedIn(agent)

    await page.goto(`${t.url}/openhouses`)
    await arrive(page, /\/openhouses/, 'Open Houses')
    await page.getByRole('tab', { name: 'My Upcoming Open Houses' }).waitFor()
    expect(await page.getByRole('link', { name: 'Open House Map' }).count()).toBe(0)
    await expectAccessible(page, 'open houses, maps off', { alsoAtPhoneWidth: true })

    await page.goto(`${t.url}/openhousemap`)
    await arrive(page, `${t.url}/openhousemap`, 'Open House Map')
    const list = page.getByRole('list', { name: 'Open house addresses' })
    // Listed even without coordinates: a list needs no map location.
    await list.getByText('48 Lantern Way, Alpharetta, Georgia 30004, United States').waitFor()
    expect(await page.locator('.property-map__canvas, .map-pending').count()).toBe(0)
    await expectAccessible(page, 'open house map, maps off', { alsoAtPhoneWidth: true })
  }, 60_000)

  it('links Open Houses to the open house map when a map style is configured', async () => {
    const mapsOn = await buildTestApp({
      web: true,
      sameAs: t,
      env: { MAP_STYLE_URL: 'https://tiles.example.com/styles/streets.json' },
    })
    current = mapsOn
    try {
      const agent = await makePlannedAgent(t.db, { firstName: 'Nora' })
      const page = await signedIn(agent)
      await page.goto(`${mapsOn.url}/openhouses`)
      await arrive(page, /\/openhouses/, 'Open Houses')
      const link = page.getByRole('link', { name: 'Open House Map' })
      await link.waitFor()
      expect(await link.getAttribute('href')).toBe('/openhousemap')
      await expectAccessible(page, 'open houses, maps on', { alsoAtPhoneWidth: true })
    } finally {
      current = undefined
      await mapsOn.close()
    }
  }, 60_000)
})
