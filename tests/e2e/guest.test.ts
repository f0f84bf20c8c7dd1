import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { launchBrowser } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// Set GUEST_SCREENSHOTS=/some/dir to keep phone screenshots of the guest pages.
const SHOTS = process.env.GUEST_SCREENSHOTS
const WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist')
/** DESIGN.md "Front end": the guest page's JavaScript, gzipped. */
const GUEST_JS_BUDGET = 80 * 1024

let t: TestApp
let browser: Browser
const contexts: BrowserContext[] = []
const pageErrors: string[] = []

beforeAll(async () => {
  t = await buildTestApp({ web: true })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await t?.close()
})
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
  expect(pageErrors.splice(0)).toEqual([])
})

type Agent = Awaited<ReturnType<typeof makePlannedAgent>>

async function newContext(options: Parameters<Browser['newContext']>[0]) {
  const context = await browser.newContext(options)
  contexts.push(context)
  context.setDefaultTimeout(10_000)
  return context
}

async function newPage(context: BrowserContext) {
  const page = await context.newPage()
  page.on('pageerror', (err) => pageErrors.push(err.message))
  return page
}

/** The agent's browser, signed in as the app leaves it (token and profile in local storage). */
async function signedIn(agent: Agent): Promise<Page> {
  const page = await newPage(await newContext({ viewport: { width: 1280, height: 900 } }))
  const profile = await t.call('GET', `/reagentmgmt/getREAgentDetails/${agent.agent.id}`, {
    token: agent.token,
  })
  await page.goto(t.url)
  await page.evaluate(
    ({ token, profile }) => {
      localStorage.setItem('porchlightUserToken', token)
      localStorage.setItem('porchlightLoggedInProfile', profile)
    },
    { token: agent.token, profile: JSON.stringify(profile.body.data) },
  )
  return page
}

/** A visitor's phone held in one hand: 390×844, touch. */
const phone = () => newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()
async function arrive(page: Page, url: RegExp, title: string) {
  await page.waitForURL(url)
  await expect.poll(() => heading(page)).toBe(title)
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return
  fs.mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
}

const attendeesOf = (openHouseId: number) =>
  t.db.selectFrom('openHouseAttendee').selectAll().where('openHouseId', '=', openHouseId).execute()

async function fillSignIn(page: Page, who: { first: string; last: string; email: string; phone: string }) {
  await page.getByRole('textbox', { name: 'First Name', exact: true }).fill(who.first)
  await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill(who.last)
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(who.email)
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill(who.phone)
}

/** The host's board: the live region is joined once the Live tile says On. */
async function openBoard(host: Agent, oh: { id: number; rePropertyId: number }) {
  const board = await signedIn(host)
  await board.goto(`${t.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`)
  await expect.poll(() => heading(board)).toBe('Manage Attendees')
  await board.getByText('On', { exact: true }).waitFor()
  return board
}

const count = (page: Page, testId: string) => page.getByTestId(testId).textContent()

describe('guest QR sign-in and the live attendee board', () => {
  it('signs a guest in from the QR code on a phone, takes feedback, and the host sees both live', async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Harper', lastName: 'Host' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const board = await openBoard(host, oh)
    expect(await count(board, 'attendee-count')).toBe('0')
    await board.getByText('No guests have signed in yet.', { exact: false }).waitFor()
    await board.getByText('No feedback yet.', { exact: false }).waitFor()

    const qr = `${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`
    const visitor = await phone()
    const js = new Set<string>()
    const guest = await newPage(visitor)
    guest.on('request', (request) => {
      const { pathname } = new URL(request.url())
      if (pathname.endsWith('.js')) js.add(pathname)
    })
    await guest.goto(qr)
    await arrive(guest, /\/public\/OpenHouseToday\?/, 'Welcome to our Open House')
    await guest.getByText('Nobody has signed in yet. Be the first!').waitFor()
    expect(await guest.getByRole('link', { name: 'Sign In' }).count()).toBe(2)
    await guest.waitForLoadState('networkidle')
    let gzipped = 0
    for (const file of js) gzipped += zlib.gzipSync(fs.readFileSync(path.join(WEB_DIST, file))).length
    expect(gzipped).toBeLessThanOrEqual(GUEST_JS_BUDGET)
    await shot(guest, '1-landing')

    // A second tab on the landing page watches the visitor list fill in live.
    const lobby = await newPage(visitor)
    await lobby.goto(qr)
    await lobby.getByText('Nobody has signed in yet. Be the first!').waitFor()

    await guest.getByRole('link', { name: 'Sign In' }).first().click()
    await arrive(guest, /\/public\/OpenHouseToday\/new\?/, 'Sign In')
    await guest.getByRole('button', { name: 'Sign In' }).click()
    await guest.getByText('First name is required').waitFor()
    expect(await guest.getByText('Email Id Not Valid').isVisible()).toBe(true)
    await fillSignIn(guest, {
      first: 'Jordan',
      last: 'Rivers',
      email: 'jordan.rivers@example.com',
      phone: '404 555 0142',
    })
    await guest.getByLabel('Best Time To Contact').selectOption('Afteroon')
    await guest.getByLabel('How should we contact you?').selectOption('Email')
    const consent = guest.getByRole('checkbox', { name: /by email/ })
    expect(await guest.getByRole('checkbox', { name: /text message/ }).count()).toBe(0)
    await consent.check()
    await shot(guest, '2-sign-in')
    await guest.getByRole('button', { name: 'Sign In' }).click()

    await arrive(
      guest,
      /\/public\/OpenHouseToday\/new\/confirm\?.*prospectId=\d+/,
      'Thank you for signing in!',
    )
    await shot(guest, '3-confirm')
    const prospectId = Number(new URL(guest.url()).searchParams.get('prospectId'))
    const stored = await t.db
      .selectFrom('prospect')
      .selectAll()
      .where('id', '=', prospectId)
      .executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ bestTimeToContact: 'Afteroon', emailConsent: true, smsConsent: false })
    expect(stored.consentText).toContain('may contact me by email')

    // The host's board shows the guest at once, highlighted, without a reload.
    const row = board.getByRole('row', { name: /Jordan Rivers/ })
    await row.waitFor()
    expect(await row.getByText('Just signed in').isVisible()).toBe(true)
    expect(await count(board, 'attendee-count')).toBe('1')
    expect(await count(board, 'without-realtor-count')).toBe('1')
    expect(await board.getByRole('status').filter({ hasText: 'Jordan R. just signed in.' }).count()).toBe(1)
    // …and so does the landing page, with the first name and last initial only.
    await lobby.getByText('Jordan R.', { exact: true }).waitFor()
    expect(await lobby.getByText('Rivers').count()).toBe(0)

    await guest.getByRole('link', { name: 'Yes, Sure!' }).click()
    await arrive(guest, /\/public\/OpenHouseToday\/feedback\?/, 'Your Feedback')
    for (const title of ['Exterior', 'Interior', 'Other', 'Hosting agent']) {
      expect(await guest.getByRole('group', { name: title, exact: true }).isVisible()).toBe(true)
    }
    await guest.getByRole('group', { name: 'Kitchen' }).getByRole('radio', { name: '4', exact: true }).check()
    await guest
      .getByRole('group', { name: 'Curb Appeal' })
      .getByRole('radio', { name: '5', exact: true })
      .check()
    await guest
      .getByRole('group', { name: 'Knowledge' })
      .getByRole('radio', { name: '5', exact: true })
      .check()
    await guest.getByLabel('Anything else you would like to share?').fill('Lovely light in the kitchen.')
    await shot(guest, '4-feedback')
    await guest.getByRole('button', { name: 'Submit Feedback' }).click()
    await arrive(guest, /\/public\/OpenHouseToday\/feedback\/confirm\?/, 'Thank you for your feedback!')
    await shot(guest, '5-feedback-confirm')

    // The summary on the board changes live.
    await board.getByText('1 guest gave feedback').waitFor()
    const kitchen = board.getByRole('table', { name: 'Interior' }).getByRole('row', { name: /Kitchen/ })
    expect(await kitchen.getByRole('cell').textContent()).toBe('4')
    await board.getByText('Lovely light in the kitchen.').waitFor()
    expect(await board.getByText('1 guest gave feedback').count()).toBe(1)
  })

  it('keeps a sign-in made offline on the phone and sends it once when back online', async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Quinn', lastName: 'Host' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const board = await openBoard(host, oh)

    const visitor = await phone()
    const guest = await newPage(visitor)
    await guest.goto(
      `${t.url}/public/OpenHouseToday/new?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`,
    )
    await arrive(guest, /\/public\/OpenHouseToday\/new\?/, 'Sign In')
    await fillSignIn(guest, {
      first: 'Sam',
      last: 'Weaksignal',
      email: 'sam.weak@example.com',
      phone: '404 555 0199',
    })

    await visitor.setOffline(true)
    await guest.getByRole('button', { name: 'Sign In' }).click()
    await guest.getByText('Your sign-in is saved on this phone.').waitFor()
    await shot(guest, '6-saved-offline')
    expect(await attendeesOf(oh.id)).toEqual([])

    await visitor.setOffline(false)
    await arrive(
      guest,
      /\/public\/OpenHouseToday\/new\/confirm\?.*prospectId=\d+/,
      'Thank you for signing in!',
    )
    await board.getByRole('row', { name: /Sam Weaksignal/ }).waitFor()
    expect(await count(board, 'attendee-count')).toBe('1')

    await guest.getByRole('button', { name: 'No, Thank you!' }).click()
    await guest.getByText('You can close this browser now.').waitFor()
    await shot(guest, '7-goodbye')

    // Reloading (a next visit) finds nothing left to send; the guest is on the board and stored once.
    await guest.reload()
    await guest.waitForLoadState('networkidle')
    expect(await guest.evaluate(() => localStorage.getItem('porchlightPendingGuestSignIns'))).toBeNull()
    expect(await board.getByRole('row', { name: /Sam Weaksignal/ }).count()).toBe(1)
    expect(await attendeesOf(oh.id)).toHaveLength(1)
    const prospects = await t.db
      .selectFrom('prospect')
      .select('id')
      .where('prospectEmailId', '=', 'sam.weak@example.com')
      .execute()
    expect(prospects).toHaveLength(1)
  })
})
