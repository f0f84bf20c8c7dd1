import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { messages } from '@porchlight/shared'
import jsQR from 'jsqr'
import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { acceptTeam, daysFromNow, makePlannedAgent, scheduleFields } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
/** Set SCREENSHOTS=dir to keep a picture of the screens the Team Lead journey passes through. */
const shots = process.env.SCREENSHOTS

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()

/** Waits for a screen by its address and title, then checks it with axe. */
async function arrive(page: Page, url: string | RegExp, title: string) {
  await page.waitForURL(url)
  await expect.poll(() => heading(page)).toBe(title)
  await expectAccessible(page, title)
}

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true })

async function snap(page: Page, name: string) {
  await expectAccessible(page, name)
  if (!shots) return
  fs.mkdirSync(shots, { recursive: true })
  await page.waitForTimeout(400)
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })
}

/** Types a property on the property search form (no address provider is configured in tests). */
async function fillProperty(page: Page, street: string) {
  await field(page, 'Address Line 1').fill(street)
  await field(page, 'City').fill('Roswell')
  await choose(page, 'Select a state', 'Georgia')
  await field(page, 'County').fill('Fulton')
  await field(page, 'Zip Code').fill('30075')
  await choose(page, 'Property Type', 'Single Family Home')
}

/** Fills the schedule form's date, times and publish level. */
async function fillSchedule(page: Page, level: string) {
  await choose(page, 'Open House For', 'Sale')
  const [year, month, day] = daysFromNow(4).split('-')
  await page.getByRole('spinbutton', { name: /month/i }).first().click()
  await page.keyboard.type(`${month}${day}${year}`)
  await choose(page, 'Start Time', '10:00 AM')
  await choose(page, 'End Time', '12:00 PM')
  await choose(page, 'Publish Level', level)
}

const details = (agent: { token: string }, id: number) =>
  t.call('GET', `/openhousemgmt/getOpenHouseDetails/${id}`, { token: agent.token })

/** A guest signs in at the door through the public API, as the QR-code page does. */
function guestSignIn(openHouseId: number, email: string, listingAgentConsent: boolean) {
  return t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: 'Morgan',
      prospectLastName: 'Guest',
      prospectEmailId: email,
      prospectPhoneNumber: '404 555 0177',
      workingWithREAgentFlag: 'false',
      openHouseId,
      clientRequestId: randomUUID(),
      listingAgentConsent: listingAgentConsent ? 'true' : 'false',
    },
  })
}

/** Opens a react-aria select by its label and picks an option. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('button', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

/** The open house card (grid view) for a street address. */
const card = (page: Page, street: string) => page.getByRole('article', { name: street })

/** Opens the More menu of a card and picks one of its items. */
async function fromMenu(page: Page, street: string, item: string) {
  await card(page, street)
    .getByRole('button', { name: `More actions for ${street}` })
    .click()
  await page.getByRole('menuitem', { name: item, exact: true }).click()
}

/** What has focus, described: its role or tag and its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement
    return el ? `${el.getAttribute('role') ?? el.tagName.toLowerCase()}: ${el.textContent?.trim()}` : 'none'
  })

async function openSection(page: Page, section: string, tab: string) {
  await page.goto(`${t.url}/openhouses?activeSection=${section}`)
  await page.getByRole('tab', { name: tab, selected: true }).waitFor()
  await page.getByRole('tabpanel').getByRole('button', { name: 'Refresh' }).waitFor()
  await expectAccessible(page, tab)
}

// Every screen these journeys reach is checked with axe, which takes its time on a busy machine.
describe('open houses in the browser', { timeout: 60_000 }, () => {
  it('keeps focus on the next card when a claim takes one away, then on the empty list', async () => {
    // First in this file, so no other test's opportunity is on offer; and to one firm only.
    const firm = `FIRM-${randomBytes(4).toString('hex')}`
    const listing = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Mona' })
    const host = await makePlannedAgent(t.db, { brokerFirmLicense: firm, firstName: 'Fred' })
    for (let i = 0; i < 2; i++) {
      const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Market Center' })
      expect((await publish(t, listing, oh.id, 'Market Center')).status).toBe(200)
    }
    const page = await signedIn(host)
    await openSection(page, 'searchOH', 'Search Open Houses')
    const list = page.getByRole('list', { name: 'Open houses available to host' })
    await expect.poll(() => list.getByRole('article').count()).toBe(2)
    const [first, second] = await list.getByRole('heading', { level: 3 }).allTextContents()
    if (!first || !second) throw new Error('two open houses are offered')
    await expectAccessible(page, 'Search Open Houses with two opportunities', { alsoAtPhoneWidth: true })

    // Claimed with the keyboard: the card leaves and focus moves to the next card's Claim.
    await card(page, first)
      .getByRole('button', { name: `Claim ${first}` })
      .focus()
    await page.keyboard.press('Enter')
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, claim it' }).press('Enter')
    await page.getByRole('status').filter({ hasText: messages.openHouseClaimed }).waitFor()
    await card(page, first).waitFor({ state: 'detached' })
    await expect.poll(() => focused(page)).toBe(`button: Claim ${second}`)
    await expectAccessible(page, 'Search Open Houses after a claim')

    // The last one claimed: focus rests on the message saying the list is empty, never on <body>.
    await page.keyboard.press('Enter')
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, claim it' }).click()
    await card(page, second).waitFor({ state: 'detached' })
    await expect.poll(() => focused(page)).toMatch(/^div: No open houses are offered to you right now\./)
    await expectAccessible(page, 'Search Open Houses emptied by claims')
  }, 60_000)

  it('publishes an open house that another agent sees and claims live, a third watches it go, and it comes back on withdrawal', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Avery', lastName: 'Lister' })
    const host = await makePlannedAgent(t.db, { firstName: 'Blake', lastName: 'Host' })
    const watcher = await makePlannedAgent(t.db, { firstName: 'Casey', lastName: 'Watcher' })
    const street = `${Math.floor(Math.random() * 900) + 100} Porch Lane`

    const a = await signedIn(listing)
    const b = await signedIn(host)
    const c = await signedIn(watcher)
    for (const page of [b, c]) {
      await openSection(page, 'searchOH', 'Search Open Houses')
      await page.getByText('No open houses are offered to you right now.').waitFor()
    }

    // A adds the property through the action bar and schedules its open house.
    await openSection(a, 'upcomingOH', 'My Upcoming Open Houses')
    await a.getByText('You have no upcoming open houses.').waitFor()
    await a.getByRole('link', { name: 'Schedule Open House' }).click()
    await arrive(a, `${t.url}/openhouses/property`, 'Add Property')
    await a.getByRole('button', { name: 'Next' }).click()
    await a.getByText('Address is required').waitFor()
    expect(await a.getByText('Property type is required').isVisible()).toBe(true)
    // No address provider is configured here: the lookup says so and manual entry carries on.
    await a.getByRole('combobox', { name: 'Find the address' }).fill('12 Porch')
    await a.getByText("Address lookup isn't available right now; please enter the address below.").waitFor()
    await field(a, 'Address Line 1').fill(street)
    await field(a, 'City').fill('Roswell')
    await choose(a, 'Select a state', 'Georgia')
    await field(a, 'County').fill('Fulton')
    await field(a, 'Zip Code').fill('30075')
    await choose(a, 'Property Type', 'Single Family Home')
    await field(a, 'Latitude').fill('34.0232')
    await field(a, 'Longitude').fill('-84.3616')
    await a.getByRole('button', { name: 'Next' }).click()

    await arrive(
      a,
      /\/openhouses\/schedule\?rePropertyId=\d+&fromPage=REInventoryView&reInventoryId=\d+$/,
      'Schedule Open House',
    )
    await choose(a, 'Open House For', 'Sale')
    const [year, month, day] = daysFromNow(3).split('-')
    await a.getByRole('spinbutton', { name: /month/i }).first().click()
    await a.keyboard.type(`${month}${day}${year}`)
    await choose(a, 'Start Time', '1:00 PM')
    await choose(a, 'End Time', '3:00 PM')
    const instructions = 'Lockbox on the side door.'
    await field(a, 'Instructions').fill(instructions)
    await a.getByText(`${200 - instructions.length} of 200 characters remaining`).waitFor()
    expect(await a.getByText(/Do not enter sensitive data/).isVisible()).toBe(true)
    await choose(a, 'Publish Level', 'Open To All')
    await a.getByRole('button', { name: 'Save' }).click()

    await arrive(a, /\/openhouses\/schedule\/\d+\/confirm\?/, 'Open House Scheduled')
    const confirmUrl = new URL(a.url())
    const openHouseId = Number(confirmUrl.pathname.split('/')[3])
    expect(Object.fromEntries(confirmUrl.searchParams)).toMatchObject({
      reAgentId: String(listing.agent.id),
      publish: 'Open To All',
      method: 'new',
    })
    await a.getByRole('button', { name: 'Publish Now' }).click()
    await arrive(a, `${t.url}/openhouses?activeSection=upcomingOH`, 'Open Houses')
    await a.getByRole('status').filter({ hasText: 'Open house published to Open To All.' }).waitFor()
    // One current message: the word of the last screen goes once the agent moves on to another tab.
    await a.getByRole('tab', { name: 'Past Open Houses' }).click()
    await a.getByRole('tab', { name: 'My Upcoming Open Houses' }).click()
    await a.getByRole('tab', { name: 'My Upcoming Open Houses', selected: true }).waitFor()
    expect(await a.getByText('Open house published to Open To All.').count()).toBe(0)
    const mine = card(a, street)
    await mine.getByText('Not Hosted').waitFor()

    // B and C see the new opportunity without reloading.
    for (const page of [b, c]) {
      await card(page, street).waitFor()
      await page.getByText(`New open house to host: ${street}, Roswell.`).waitFor({ state: 'attached' })
    }

    // B claims it (a confirmation first); C sees who took it, then sees it leave.
    await card(b, street)
      .getByRole('button', { name: `Claim ${street}` })
      .click()
    const dialog = b.getByRole('alertdialog')
    expect(await dialog.textContent()).toContain(street)
    await expectAccessible(b, 'the claim confirmation')
    await dialog.getByRole('button', { name: 'Yes, claim it' }).click()
    await b.getByRole('status').filter({ hasText: messages.openHouseClaimed }).waitFor()

    await card(c, street).getByText('Claimed by Blake Host').waitFor()
    await c.getByText(`${street} was claimed by Blake Host.`).waitFor({ state: 'attached' })
    // B's own screen said it; its own claim is not toasted back to it.
    expect(await b.locator('.live-toasts').textContent()).not.toContain('was claimed by')
    await card(c, street).waitFor({ state: 'detached', timeout: 15_000 })
    await c.getByText('No open houses are offered to you right now.').waitFor()

    // A's card flipped to Hosted, live.
    await mine.getByText('Hosted', { exact: true }).waitFor()
    expect(await mine.textContent()).toContain('Blake Host')
    await a.getByText(`${street} is now hosted by Blake Host.`).waitFor({ state: 'attached' })

    // B now hosts it: it is in B's upcoming list with the host's actions.
    await b.getByRole('tab', { name: 'My Upcoming Open Houses' }).click()
    const hosting = card(b, street)
    await hosting.getByText('Hosted', { exact: true }).waitFor()
    expect(await hosting.getByRole('link', { name: `Manage Attendees ${street}` }).getAttribute('href')).toBe(
      `/openhouses/schedule/${openHouseId}/manage?rePropertyId=${confirmUrl.searchParams.get('rePropertyId')}`,
    )
    await hosting.getByRole('button', { name: `More actions for ${street}` }).click()
    expect(await b.getByRole('menu').getByRole('menuitem').allTextContents()).toEqual([
      'Details',
      'QR Code',
      'Door sign',
      'Add to calendar',
      'Withdraw',
    ])
    await expectAccessible(b, "the host's More menu")
    await b.keyboard.press('Escape')

    const saved = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${openHouseId}`, {
      token: listing.token,
    })
    expect(saved.body.data).toMatchObject({
      hostingREAgentId: host.agent.id,
      scheduledDate: daysFromNow(3),
      scheduledStartTime: '1:00 PM',
      scheduledEndTime: '3:00 PM',
      openHouseInstructions: instructions,
      publishLevel: 'Open To All',
      published: true,
      reProperty: { propertyAddress1: street, propertyCity: 'Roswell', propertyType: 'Single Family Home' },
    })

    // B withdraws (after a confirmation): the opportunity is back on offer for C and unhosted for A, live.
    await fromMenu(b, street, 'Withdraw')
    await b.getByRole('alertdialog').getByRole('button', { name: 'Yes, withdraw' }).click()
    await b.getByRole('status').filter({ hasText: messages.openHouseWithdrawn }).waitFor()
    await card(c, street)
      .getByRole('button', { name: `Claim ${street}` })
      .waitFor()
    await expectAccessible(c, 'Search Open Houses with the withdrawn opportunity back', {
      alsoAtPhoneWidth: true,
    })
    await mine.getByText('Not Hosted').waitFor()
  }, 120_000)

  it("opens the claim from an invitation's link, and tells a late agent who was quicker", async () => {
    const listing = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-LINK' })
    const first = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-LINK', firstName: 'Quinn' })
    const late = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-LINK' })
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Market Center' })
    await publish(t, listing, oh.id, 'Market Center')
    const link = `${t.url}/openhouses?activeSection=searchOH&openHouseId=${oh.id}`

    const page = await signedIn(first)
    await page.goto(link)
    await page.getByRole('heading', { name: 'Claim this open house?' }).waitFor()
    await page.getByRole('button', { name: 'Yes, claim it' }).click()
    await page.getByText(messages.openHouseClaimed).waitFor()

    const latePage = await signedIn(late)
    await latePage.goto(link)
    await latePage.getByText(`Quinn ${first.agent.reAgentLastName} already claimed the open house`).waitFor()
    expect(await latePage.getByRole('heading', { name: 'Claim this open house?' }).count()).toBe(0)
  })

  it('shows a QR code that decodes to the public guest page of the open house', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Quinn' })
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const page = await signedIn(listing)
    await openSection(page, 'upcomingOH', 'My Upcoming Open Houses')
    const details = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, {
      token: listing.token,
    })
    const street: string = details.body.data.reProperty.propertyAddress1

    await fromMenu(page, street, 'QR Code')
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('img', { name: /QR code opening the guest sign-in page/ }).waitFor()
    await expectAccessible(page, 'the QR code dialog', { alsoAtPhoneWidth: true })
    const expected = `${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${listing.agent.id}&from=qrcode`
    expect(await dialog.textContent()).toContain(expected)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download PNG' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/-qr\.png$/)
    const png = PNG.sync.read(fs.readFileSync(await download.path()))
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
    expect(decoded?.data).toBe(expected)

    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download SVG' }).click(),
    ])
    expect(fs.readFileSync(await svg.path(), 'utf8')).toMatch(
      /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/,
    )
  })

  it('sends a claim of a flexible date to updateSchedule, which fixes the time and claims', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Flex' })
    const host = await makePlannedAgent(t.db, { firstName: 'Dana', lastName: 'Claimer' })
    const oh = await scheduleOpenHouse(t, listing, {
      scheduledDate: 'Pick Your Own (Flexi Date)',
      scheduledStartTime: 'Choose Your Own (Flexi Time)',
      scheduledEndTime: 'Choose Your Own (Flexi Time)',
    })
    expect((await publish(t, listing, oh.id)).status).toBe(200)
    const street = (
      await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: listing.token })
    ).body.data.reProperty.propertyAddress1 as string

    const page = await signedIn(host)
    await openSection(page, 'searchOH', 'Search Open Houses')
    await card(page, street).getByText('Pick your own date').waitFor()
    await card(page, street)
      .getByRole('button', { name: `Claim ${street}` })
      .click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, claim it' }).click()

    await arrive(page, `${t.url}/openhouses/schedule/${oh.id}/updateSchedule`, 'Update Schedule')
    const [year, month, day] = daysFromNow(5).split('-')
    await page.getByRole('spinbutton', { name: /month/i }).first().click()
    await page.keyboard.type(`${month}${day}${year}`)
    await choose(page, 'Start Time', '10:00 AM')
    await choose(page, 'End Time', '12:00 PM')
    await page.getByRole('button', { name: 'Update' }).click()

    await arrive(page, `${t.url}/openhouses/schedule/${oh.id}/updateScheduleConfirm`, 'Schedule Updated')
    await page.getByText(messages.openHouseClaimed).waitFor()
    const saved = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: host.token })
    expect(saved.body.data).toMatchObject({
      hostingREAgentId: host.agent.id,
      scheduledDate: daysFromNow(5),
      scheduledStartTime: '10:00 AM',
      scheduledEndTime: '12:00 PM',
    })
  })

  it('keeps Delete and Schedule for a Property Created item, deletes it, and cancels an open house with a reason', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Ivy' })
    const page = await signedIn(agent)
    await page.goto(`${t.url}/reinventory/new`)
    await arrive(page, `${t.url}/reinventory/new`, 'Add Property To My Inventory')
    const street = `${Math.floor(Math.random() * 900) + 100} Ember Court`
    await field(page, 'Address Line 1').fill(street)
    await field(page, 'City').fill('Marietta')
    await choose(page, 'Select a state', 'Georgia')
    await field(page, 'County').fill('Cobb')
    await field(page, 'Zip Code').fill('30060')
    await choose(page, 'Property Type', 'Townhouse')
    await choose(page, 'Property Status', 'Active')
    await page.getByRole('button', { name: 'Save' }).click()

    // 'Active' is not 'Property Created': Delete and Schedule Open House are disabled, with the reason.
    await arrive(page, `${t.url}/reinventory`, 'My Inventory')
    const item = card(page, street)
    expect(await item.getByRole('button', { name: `Delete ${street}` }).getAttribute('aria-disabled')).toBe(
      'true',
    )
    expect(
      await item.getByRole('link', { name: `Schedule Open House ${street}` }).getAttribute('aria-disabled'),
    ).toBe('true')
    await item.getByRole('link', { name: `Edit ${street}` }).click()
    await arrive(page, /\/reinventory\/\d+\/edit$/, 'Update Property Status')
    await choose(page, 'Property Status', 'Property Created')
    await page.getByRole('button', { name: 'Update' }).click()
    await arrive(page, `${t.url}/reinventory`, 'My Inventory')
    await card(page, street)
      .getByRole('button', { name: `Delete ${street}` })
      .click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, delete' }).click()
    await page.getByRole('status').filter({ hasText: messages.propertyDeletedFromInventory }).waitFor()
    await card(page, street).waitFor({ state: 'detached' })
    await page.getByText('Your inventory is empty.').waitFor()

    // Cancel: a reason is required, then a confirmation, then back to /openhouses showing 'Canceled'.
    const oh = await scheduleOpenHouse(t, agent)
    const planned = (
      await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: agent.token })
    ).body.data.reProperty.propertyAddress1 as string
    await openSection(page, 'upcomingOH', 'My Upcoming Open Houses')
    await fromMenu(page, planned, 'Cancel Open House')
    await arrive(page, `${t.url}/openhouses/schedule/${oh.id}/cancel`, 'Cancel Open House')
    await page.getByRole('button', { name: 'Cancel Open House' }).click()
    await page.getByText('Cancellation reason is required').waitFor()
    await choose(page, 'Cancellation Reason', 'Seller Not Available')
    await page.getByRole('button', { name: 'Cancel Open House' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, cancel it' }).click()
    await arrive(page, `${t.url}/openhouses?activeSection=upcomingOH`, 'Open Houses')
    await card(page, planned).getByText('Canceled', { exact: true }).waitFor()
    const saved = await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: agent.token })
    expect(saved.body.data).toMatchObject({
      openHouseCanceledFlag: true,
      openHouseCancelReason: 'Seller Not Available',
    })
  })

  it('lets a Team Lead schedule for an accepted teammate only, and the teammate publish it to the team', async () => {
    const firm = `FIRM-${randomBytes(4).toString('hex')}`
    const lead = await makePlannedAgent(t.db, {
      role: 'Team Lead',
      brokerFirmLicense: firm,
      firstName: 'Terry',
      lastName: 'Lead',
    })
    const ann = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Ann',
      lastName: 'Teammate',
    })
    const ivo = await makePlannedAgent(t.db, {
      brokerFirmLicense: firm,
      firstName: 'Ivo',
      lastName: 'Invited',
    })
    const team = await t.call('POST', '/reteammgmt/saveRETeam', {
      token: lead.token,
      body: { reTeamName: 'Porch Pros', teamType: 'Real Estate Team' },
    })
    const teamId: number = team.body.data.id
    for (const member of [ann, ivo]) {
      const added = await t.call('POST', '/reteammgmt/addMemberToRETeam', {
        token: lead.token,
        body: { reTeamId: teamId, reAgentId: member.agent.id },
      })
      expect(added.status).toBe(201)
    }
    const street = `${Math.floor(Math.random() * 900) + 100} Teammate Trail`

    // The lead adds the house for a teammate: it goes to nobody's inventory yet.
    const page = await signedIn(lead)
    await page.goto(`${t.url}/openhouses/property`)
    await arrive(page, `${t.url}/openhouses/property`, 'Add Property')
    await page.getByText('pick the agent you schedule its open house for').waitFor()
    await fillProperty(page, street)
    await page.getByRole('button', { name: 'Next' }).click()
    await arrive(page, /\/openhouses\/schedule\?rePropertyId=\d+$/, 'Schedule Open House')

    // Nobody has accepted yet: the picker is empty and says what to do.
    await page.getByText('Invite agents to your team; once they accept you can schedule for them.').waitFor()
    await snap(page, 'tl-01-no-teammates')

    // Ann accepts; the picker offers her, never the lead itself nor Ivo, who has not accepted.
    await acceptTeam(t, ann, teamId)
    await page.reload()
    await arrive(page, /\/openhouses\/schedule\?rePropertyId=\d+$/, 'Schedule Open House')
    await page.getByRole('button', { name: 'Listing Agent' }).click()
    await page.getByRole('option', { name: 'Ann Teammate' }).waitFor()
    expect(await page.getByRole('option').allTextContents()).toEqual(['Ann Teammate'])
    await page.getByRole('option', { name: 'Ann Teammate' }).click()
    await page.getByText("The property joins Ann Teammate's inventory when you save.").waitFor()
    await fillSchedule(page, 'Real Estate Team')
    await snap(page, 'tl-02-schedule-for-teammate')
    await page.getByRole('button', { name: 'Save' }).click()

    await arrive(page, /\/openhouses\/schedule\/\d+\/confirm\?/, 'Open House Scheduled')
    const confirmUrl = new URL(page.url())
    const openHouseId = Number(confirmUrl.pathname.split('/')[3])
    expect(confirmUrl.searchParams.get('reAgentId')).toBe(String(ann.agent.id))

    // A level the lead has no team for: the server's reason is shown in words, by the choice.
    await choose(page, 'Publish Level', 'Real Estate Group')
    await page.getByRole('button', { name: 'Publish Now' }).click()
    const refusal =
      'There is no active Real Estate Group of yours that the listing agent has joined to publish to'
    // Said beside the choice, which takes focus so the message is read out; no vague summary.
    await page.getByText(refusal).waitFor()
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toContain('Real Estate Group')
    expect(await page.getByText('Some fields need attention').count()).toBe(0)
    await snap(page, 'tl-03-publish-refused')
    await page.getByRole('link', { name: 'Publish Later' }).click()
    await arrive(page, `${t.url}/openhouses?activeSection=upcomingOH`, 'Open Houses')
    const leadCard = card(page, street)
    await leadCard.getByText('Scheduled for Ann Teammate').waitFor()
    // The lead may publish it for Ann: that is its card's one primary action, Edit is in More.
    expect(await leadCard.getByRole('link', { name: `Publish ${street}` }).isVisible()).toBe(true)
    await leadCard.getByRole('button', { name: `More actions for ${street}` }).click()
    await page.getByRole('menuitem', { name: 'Edit' }).waitFor()
    await page.keyboard.press('Escape')
    await snap(page, 'tl-04-lead-upcoming')

    // Ann's list shows who scheduled it; she publishes it to the team level her lead chose.
    const annPage = await signedIn(ann)
    await openSection(annPage, 'upcomingOH', 'My Upcoming Open Houses')
    const annCard = card(annPage, street)
    await annCard.getByText('Scheduled by Terry Lead').waitFor()
    await annCard.getByRole('link', { name: `Publish ${street}` }).click()
    await arrive(annPage, /\/openhouses\/schedule\/\d+\/confirm\?/, 'Publish Open House')
    await annPage.getByRole('heading', { name: 'Publish it now to Real Estate Team?' }).waitFor()
    await annPage.getByRole('button', { name: 'Publish Now' }).click()
    await annPage
      .getByRole('status')
      .filter({ hasText: 'Open house published to Real Estate Team.' })
      .waitFor()

    const saved = await details(ann, openHouseId)
    expect(saved.body.data).toMatchObject({
      listingREAgentId: ann.agent.id,
      scheduledByREAgentId: lead.agent.id,
      publishLevel: 'Real Estate Team',
      publishLevelId: String(teamId),
      published: true,
    })
    // The house joined Ann's inventory, not the lead's.
    const item = await t.call(
      'GET',
      `/reinventorymgmt/getREInventoryDetails/${saved.body.data.reInventoryId}`,
      {
        token: ann.token,
      },
    )
    expect(item.body.data).toMatchObject({
      owningREAgentId: ann.agent.id,
      reProperty: { propertyAddress1: street },
    })

    // On a phone the lead's card still says whom it is for.
    const phone = await signedIn(lead, { viewport: { width: 390, height: 844 } })
    await openSection(phone, 'upcomingOH', 'My Upcoming Open Houses')
    await card(phone, street).getByText('Scheduled for Ann Teammate').waitFor()
    await snap(phone, 'tl-05-lead-upcoming-phone')
  }, 120_000)

  it('says when the listing agent fixed the date meanwhile, and offers the claim as scheduled', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Fixer' })
    const host = await makePlannedAgent(t.db, { firstName: 'Robin', lastName: 'Claimer' })
    const oh = await scheduleOpenHouse(t, listing, {
      scheduledDate: 'Pick Your Own (Flexi Date)',
      scheduledStartTime: 'Choose Your Own (Flexi Time)',
      scheduledEndTime: 'Choose Your Own (Flexi Time)',
    })
    expect((await publish(t, listing, oh.id)).status).toBe(200)

    const page = await signedIn(host)
    await page.goto(`${t.url}/openhouses/schedule/${oh.id}/updateSchedule`)
    await arrive(page, `${t.url}/openhouses/schedule/${oh.id}/updateSchedule`, 'Update Schedule')
    const fixed = await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, {
      token: listing.token,
      body: scheduleFields(oh.rePropertyId, { scheduledDate: daysFromNow(6) }),
    })
    expect(fixed.status).toBe(200)

    const [year, month, day] = daysFromNow(5).split('-')
    await page.getByRole('spinbutton', { name: /month/i }).first().click()
    await page.keyboard.type(`${month}${day}${year}`)
    await choose(page, 'Start Time', '10:00 AM')
    await choose(page, 'End Time', '12:00 PM')
    await page.getByRole('button', { name: 'Update' }).click()
    await page.getByText(messages.scheduleFixed).waitFor()
    await page.getByRole('button', { name: 'Claim As Scheduled' }).click()
    await arrive(page, `${t.url}/openhouses?activeSection=upcomingOH`, 'Open Houses')
    await page.getByRole('status').filter({ hasText: messages.openHouseClaimed }).waitFor()
    expect((await details(host, oh.id)).body.data).toMatchObject({
      hostingREAgentId: host.agent.id,
      scheduledDate: daysFromNow(6),
      scheduledStartTime: '1:00 PM',
    })
  })

  it('tells the listing agent its edit was made on a version another agent changed, keeping what it typed', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Edie', lastName: 'Lister' })
    const host = await makePlannedAgent(t.db, { firstName: 'Quinn', lastName: 'Quick' })
    const oh = await scheduleOpenHouse(t, listing)
    expect((await publish(t, listing, oh.id)).status).toBe(200)

    const page = await signedIn(listing)
    await page.goto(`${t.url}/openhouses/schedule/${oh.id}/edit`)
    await arrive(page, `${t.url}/openhouses/schedule/${oh.id}/edit`, 'Edit Open House')
    const instructions = page.getByRole('textbox', { name: 'Instructions' })
    await instructions.fill('Shoes off, please.')
    // Meanwhile another agent claims it.
    expect(
      (
        await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
          token: host.token,
        })
      ).status,
    ).toBe(200)

    await page.getByRole('button', { name: 'Update' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'This open house changed since you opened it' })
    await alert.waitFor()
    expect(await alert.textContent()).toContain('Changed: host')
    expect(await instructions.inputValue()).toBe('Shoes off, please.')
    await expectAccessible(page, 'the edit form told the open house changed meanwhile')
    expect((await details(listing, oh.id)).body.data.openHouseInstructions).not.toBe('Shoes off, please.')

    // Saving again, now on the version it was shown, keeps both the claim and the edit.
    await page.getByRole('button', { name: 'Update' }).click()
    await page.waitForURL(/\/confirm\?/)
    expect((await details(listing, oh.id)).body.data).toMatchObject({
      hostingREAgentId: host.agent.id,
      openHouseInstructions: 'Shoes off, please.',
    })

    // A change the page heard live (the open house refreshed under the form) is still named.
    await page.goto(`${t.url}/openhouses/schedule/${oh.id}/edit`)
    await arrive(page, `${t.url}/openhouses/schedule/${oh.id}/edit`, 'Edit Open House')
    const elsewhere = await t.call('PATCH', `/openhousemgmt/saveOpenHouse/${oh.id}`, {
      token: listing.token,
      body: scheduleFields(oh.rePropertyId, { openHouseInstructions: 'Changed in another tab.' }),
    })
    expect(elsewhere.status).toBe(200)
    await page.getByRole('button', { name: 'Update' }).click()
    await alert.waitFor()
    expect(await alert.textContent()).toContain('Changed: instructions')
  })

  it("shows the listing agent the host's guests masked unless they consented, and 404s what is not the agent's", async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Lane', lastName: 'Lister' })
    const host = await makePlannedAgent(t.db, { firstName: 'Hale', lastName: 'Host' })
    const outsider = await makePlannedAgent(t.db, { firstName: 'Otto' })
    const oh = await scheduleOpenHouse(t, listing)
    expect((await publish(t, listing, oh.id)).status).toBe(200)
    const claimed = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
      token: host.token,
    })
    expect(claimed.status).toBe(200)
    const masked = `masked-${randomBytes(3).toString('hex')}@example.com`
    const shared = `shared-${randomBytes(3).toString('hex')}@example.com`
    expect((await guestSignIn(oh.id, masked, false)).status).toBe(201)
    expect((await guestSignIn(oh.id, shared, true)).status).toBe(201)
    const street: string = (await details(listing, oh.id)).body.data.reProperty.propertyAddress1

    // The listing agent reaches the attendee board from its card, and may request the host's report.
    const page = await signedIn(listing)
    await openSection(page, 'upcomingOH', 'My Upcoming Open Houses')
    const mine = card(page, street)
    expect(await mine.getByRole('link', { name: `Manage Attendees ${street}` }).count()).toBe(0)
    await fromMenu(page, street, 'Request OH Report')
    await page.getByRole('status').filter({ hasText: messages.hostingReportRequested }).waitFor()
    await expectAccessible(page, 'the upcoming list, the report requested')
    const board = mine.getByRole('link', { name: `Attendee Board ${street}` })
    expect(await board.getAttribute('href')).toBe(
      `/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`,
    )
    await board.click()
    await arrive(page, new RegExp(`/openhouses/schedule/${oh.id}/manage`), 'Attendees')
    const rows = page.getByRole('table').getByRole('row')
    await rows.filter({ hasText: shared }).waitFor()
    expect(await rows.filter({ hasText: masked }).count()).toBe(0)
    const maskedRow = rows.filter({ hasText: 'Contact masked' })
    expect(await maskedRow.textContent()).toContain("Hale Host's lead")
    expect(await maskedRow.textContent()).toMatch(/m\*+\w@exa\*+\.com/)
    expect(await page.getByRole('link', { name: 'Add Attendee' }).count()).toBe(0)
    await snap(page, 'att-01-listing-sees-attendees')
    await maskedRow.getByRole('button', { name: /^View/ }).click()
    await page.getByRole('dialog').getByText("This guest is another agent's lead, not yours.").waitFor()
    await snap(page, 'att-02-masked-prospect')
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()

    // The host sees its own leads in full and adds attendees.
    const hostPage = await signedIn(host)
    await hostPage.goto(`${t.url}/openhouses/schedule/${oh.id}/manage`)
    await arrive(hostPage, `${t.url}/openhouses/schedule/${oh.id}/manage`, 'Manage Attendees')
    await hostPage.getByRole('table').getByText(masked).waitFor()
    expect(await hostPage.getByRole('link', { name: 'Add Attendee' }).isVisible()).toBe(true)

    // An open house offered to nobody yet, and its inventory item, do not exist for another agent.
    const hidden = await scheduleOpenHouse(t, listing)
    const other = await signedIn(outsider)
    await other.goto(`${t.url}/openhouses/schedule/${hidden.id}/edit`)
    await expect.poll(() => heading(other)).toBe('Page not found')
    await expectAccessible(other, 'Page not found')
    const item = (await details(listing, hidden.id)).body.data.reInventoryId as number
    await other.goto(`${t.url}/reinventory/${item}/edit`)
    await expect.poll(() => heading(other)).toBe('Page not found')
  }, 60_000)
})

describe('refreshing a list without a connection', () => {
  it('says the refresh failed and keeps the list it had', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Rhea', lastName: 'Refresh' })
    const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
    const street: string = (await details(agent, oh.id)).body.data.reProperty.propertyAddress1
    const page = await signedIn(agent)
    await page.goto(`${t.url}/openhouses?activeSection=upcomingOH`)
    await page.getByRole('article', { name: street }).waitFor()
    await page.route('**/api/openhousemgmt/**', (route) => route.abort('internetdisconnected'))
    await page.getByRole('button', { name: 'Refresh' }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: /^Couldn't refresh\. Showing what we had at \d/ })
      .waitFor()
    expect(await page.getByRole('article', { name: street }).isVisible()).toBe(true)
    await expectAccessible(page, 'the upcoming list after a failed refresh', { alsoAtPhoneWidth: true })
    // Back online, the next Refresh clears it.
    await page.unroute('**/api/openhousemgmt/**')
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => page.getByText("Couldn't refresh.", { exact: false }).count()).toBe(0)
  }, 60_000)
})

describe('the List view', () => {
  it('shows each open house on one line with its primary action and the same More menu as its card', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Lena', lastName: 'Lines' })
    const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
    const street: string = (await details(agent, oh.id)).body.data.reProperty.propertyAddress1
    const page = await signedIn(agent)
    await openSection(page, 'upcomingOH', 'My Upcoming Open Houses')
    await page.getByRole('radio', { name: 'List' }).click()
    const row = page
      .getByRole('table', { name: 'My Upcoming Open Houses' })
      .getByRole('row', { name: street })
    expect(await row.getByRole('link', { name: `Manage Attendees ${street}` }).isVisible()).toBe(true)
    // One line of text (a small button's height and the cell's padding), not a stack of buttons.
    expect((await row.boundingBox())?.height).toBeLessThan(64)
    await row.getByRole('button', { name: `More actions for ${street}` }).click()
    expect(await page.getByRole('menu').getByRole('menuitem').allTextContents()).toEqual([
      'Details',
      'Edit',
      'QR Code',
      'Door sign',
      'Add to calendar',
      'Clone',
      'Add another day',
      'Cancel Open House',
    ])
    await expectAccessible(page, 'the List view with its More menu open')
    await page.getByRole('menuitem', { name: 'Details' }).click()
    await page.getByRole('dialog').waitFor()
    await expectAccessible(page, 'the open house details from the List view')
  }, 60_000)
})
