import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { rooms } from '@porchlight/shared'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { expectAccessible, launchBrowser } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { prospectOfVisit, publish, scheduleOpenHouse } from '../support/open-houses.ts'

// Set GUEST_SCREENSHOTS=/some/dir to keep phone screenshots of the guest pages.
const SHOTS = process.env.GUEST_SCREENSHOTS
// The build the app serves (buildTestApp honours TEST_WEB_DIST), so the bytes weighed are those loaded.
const WEB_DIST = process.env.TEST_WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist')
/** DESIGN.md "Front end": the guest page's JavaScript, gzipped. */
const GUEST_JS_BUDGET = 80 * 1024
/** A whole visit in one browser, beside the agent's board, on a shared CI machine. */
const JOURNEY_MS = 120_000

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
/** Waits for a screen by its address and title, then checks it with axe. */
async function arrive(page: Page, url: RegExp, title: string) {
  await page.waitForURL(url)
  await expect.poll(() => heading(page)).toBe(title)
  await expectAccessible(page, title)
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

/** The host's board, once its socket has joined the open house's room (it hears every guest from then on). */
async function openBoard(host: Agent, oh: { id: number; rePropertyId: number }) {
  const board = await signedIn(host)
  await board.goto(`${t.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`)
  await expect.poll(() => heading(board)).toBe('Manage Attendees')
  await expect
    .poll(() =>
      [...t.app.deps.realtime.io.of('/').sockets.values()].some(
        (socket) => socket.data.agentId === host.agent.id && socket.rooms.has(rooms.openHouse(oh.id)),
      ),
    )
    .toBe(true)
  return board
}

const count = (page: Page, testId: string) => page.getByTestId(testId).textContent()

const prospectOf = (id: number) =>
  t.db.selectFrom('prospect').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const feedbackOf = (openHouseId: number) =>
  t.db.selectFrom('openHouseFeedback').selectAll().where('openHouseId', '=', openHouseId).execute()

/** The guest tokens this phone keeps, by `${openHouseId}:${visitId}` (never in a URL). */
const keptTokens = async (page: Page) =>
  Object.keys(
    JSON.parse((await page.evaluate(() => localStorage.getItem('porchlightGuestTokens'))) ?? '{}') as object,
  )

/** Someone other than the listing agent claims and hosts it. */
async function hostedByAnother(listing: Agent, host: Agent) {
  const oh = await scheduleOpenHouse(t, listing)
  expect((await publish(t, listing, oh.id)).status).toBe(200)
  const claimed = await t.call('PATCH', `/openhousemgmt/claimToHostOpenHouse/${oh.id}/${host.agent.id}`, {
    token: host.token,
  })
  expect(claimed.status).toBe(200)
  return oh
}

/** The six ratings the feedback form asks first, as the visitor reads them. */
const PRIMARY_LABELS = [
  'Overall Experience',
  'Home Condition',
  'Home Price',
  'Home Location',
  'Home Layout',
  'Hosting Agent Overall',
]

const NO_TOKEN = 'To leave feedback, please sign in at the open house on this phone first.'

describe('guest QR sign-in and the live attendee board', () => {
  it('signs a guest in from the QR code on a phone, takes feedback, and the host sees both live', {
    timeout: JOURNEY_MS,
  }, async () => {
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
    // The page carries its own script (web/build/inline-page.ts); any script file it loads counts too.
    const inline = await guest.evaluate(() =>
      [...document.querySelectorAll('script:not([src])')].map((s) => s.textContent ?? ''),
    )
    let gzipped = 0
    for (const code of inline) gzipped += zlib.gzipSync(code).length
    for (const file of js) gzipped += zlib.gzipSync(fs.readFileSync(path.join(WEB_DIST, file))).length
    expect(gzipped, 'the guest page runs its script').toBeGreaterThan(4 * 1024)
    console.info(
      `guest JS: ${gzipped} B gzipped (${(gzipped / 1024).toFixed(2)} of ${GUEST_JS_BUDGET / 1024} KB)`,
    )
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
    await expectAccessible(guest, 'the guest sign-in page showing what is missing')
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
    // The listing agent hosts it: the wording names it, and there is no second box to share with it.
    expect(await consent.getAttribute('name')).toBe('emailConsent')
    await guest.getByRole('group', { name: 'May Harper Host contact you?' }).waitFor()
    await guest
      .getByText('I agree that Harper Host, who is hosting this open house, may contact me')
      .waitFor()
    expect(await guest.getByRole('checkbox', { name: /listing agent/ }).count()).toBe(0)
    await consent.check()
    await shot(guest, '2-sign-in')
    await expectAccessible(guest, 'the guest sign-in page, filled in')
    await guest.getByRole('button', { name: 'Sign In' }).click()

    await arrive(
      guest,
      /\/public\/OpenHouseToday\/new\/confirm\?.*prospectId=\d+/,
      'Thank you for signing in!',
    )
    await shot(guest, '3-confirm')
    // The URL carries the visit's id, never the prospect's (decision 029).
    const visitId = Number(new URL(guest.url()).searchParams.get('prospectId'))
    const prospectId = await prospectOfVisit(t, visitId)
    const stored = await t.db
      .selectFrom('prospect')
      .selectAll()
      .where('id', '=', prospectId)
      .executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ bestTimeToContact: 'Afteroon', emailConsent: true, smsConsent: false })
    expect(stored.consentText).toContain(
      'Harper Host, who is hosting this open house, may contact me by email',
    )
    expect(stored.consentText).not.toContain('listing agent')
    expect(stored.createdByReAgentId).toBe(host.agent.id)
    // The feedback token stays on the phone, out of every URL.
    expect(await keptTokens(guest)).toEqual([`${oh.id}:${visitId}`])
    expect(guest.url()).not.toMatch(/token/i)

    // The host's board shows the guest at once, highlighted, without a reload.
    const row = board.getByRole('row', { name: /Jordan Rivers/ })
    await row.waitFor()
    expect(await row.getByText('Just signed in').isVisible()).toBe(true)
    expect(await count(board, 'attendee-count')).toBe('1')
    // Jordan skipped "working with an agent": not said is not "without a realtor" (decision 038).
    expect(await count(board, 'without-realtor-count')).toBe('0')
    expect(await board.getByRole('status').filter({ hasText: 'Jordan R. just signed in.' }).count()).toBe(1)
    // …and so does the landing page, with the first name and last initial only.
    await lobby.getByText('Jordan R.', { exact: true }).waitFor()
    expect(await lobby.getByText('Rivers').count()).toBe(0)

    await guest.getByRole('link', { name: 'Yes, Sure!' }).click()
    await arrive(guest, /\/public\/OpenHouseToday\/feedback\?/, 'Your Feedback')
    // First the six ratings visitors answer most and the free text; the other 25 wait behind a disclosure.
    const first = guest.getByRole('group', { name: 'Your impressions' })
    expect(
      await first
        .getByRole('group')
        .evaluateAll((groups) => groups.map((g) => g.querySelector('legend')?.textContent)),
    ).toEqual(PRIMARY_LABELS)
    expect(await guest.getByLabel('Anything else you would like to share?').isVisible()).toBe(true)
    const more = guest.getByRole('button', { name: 'Rate more details' })
    expect(await more.getAttribute('aria-expanded')).toBe('false')
    // Six ratings of six choices (N/A, 1–5) are all a visitor sees before asking for more.
    expect(await guest.getByRole('radio').count()).toBe(36)
    expect(await guest.getByRole('group', { name: 'Kitchen' }).count()).toBe(0)
    await shot(guest, '4-feedback-first')
    const rate = (name: string, value: string) =>
      guest.getByRole('group', { name, exact: true }).getByRole('radio', { name: value, exact: true }).check()
    await rate('Overall Experience', '5')
    await rate('Hosting Agent Overall', '4')
    await guest.getByLabel('Anything else you would like to share?').fill('Lovely light in the kitchen.')

    // The keyboard opens the details; what was typed and chosen stays through opening and closing.
    await more.focus()
    await guest.keyboard.press('Enter')
    expect(await more.getAttribute('aria-expanded')).toBe('true')
    for (const title of ['Exterior', 'Interior', 'Other', 'Hosting agent']) {
      expect(await guest.getByRole('group', { name: title, exact: true }).isVisible()).toBe(true)
    }
    expect(await guest.getByRole('group', { name: 'Overall Experience', exact: true }).count()).toBe(1)
    await rate('Kitchen', '4')
    await rate('Curb Appeal', '5')
    await rate('Knowledge', '5')
    await shot(guest, '4-feedback')
    // All 31 ratings open on a phone still fit its width: nothing scrolls sideways.
    expect(await guest.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await expectAccessible(guest, 'the feedback page with its details open, partly rated', {
      alsoAtPhoneWidth: true,
    })
    await more.focus()
    await guest.keyboard.press('Space')
    expect(await more.getAttribute('aria-expanded')).toBe('false')
    expect(await guest.getByRole('group', { name: 'Kitchen' }).isVisible()).toBe(false)
    await more.click()
    const checked = (name: string) =>
      guest
        .getByRole('group', { name, exact: true })
        .getByRole('radio', { checked: true })
        .getAttribute('value')
    expect(await checked('Kitchen')).toBe('4')
    expect(await checked('Overall Experience')).toBe('5')
    expect(await guest.getByLabel('Anything else you would like to share?').inputValue()).toBe(
      'Lovely light in the kitchen.',
    )
    await guest.getByRole('button', { name: 'Submit Feedback' }).click()
    await arrive(guest, /\/public\/OpenHouseToday\/feedback\/confirm\?/, 'Thank you for your feedback!')
    await shot(guest, '5-feedback-confirm')
    // Sent: the visit's token leaves the phone.
    expect(await keptTokens(guest)).toEqual([])
    const [saved] = await feedbackOf(oh.id)
    expect(saved).toMatchObject({
      prospectId,
      overallExperience: 5,
      agentOverallExperience: 4,
      kitchen: 4,
      curbAppeal: 5,
      agentKnowledge: 5,
      feedbackText: 'Lovely light in the kitchen.',
    })
    // Unanswered ratings arrive as N/A, as before.
    expect(saved).toMatchObject({ homePrice: null, homeLot: null, agentRecommendation: null })

    // The summary on the board changes live: the rated aspects, each with its average as text.
    await board.getByText('1 guest gave feedback').waitFor()
    const summary = board.getByRole('region', { name: 'Feedback Summary' })
    const kitchen = summary
      .getByRole('list', { name: 'Interior' })
      .getByRole('listitem')
      .filter({ hasText: 'Kitchen' })
    expect(await kitchen.textContent()).toBe('Kitchen4 of 5 · 1 rating')
    await board.getByText('Lovely light in the kitchen.').waitFor()
    expect(await board.getByText('1 guest gave feedback').count()).toBe(1)
  })

  it('keeps a sign-in made offline on the phone and sends it once when back online', {
    timeout: JOURNEY_MS,
  }, async () => {
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
    // The URL carries the visit's id, never the prospect's (decision 029).
    const visitId = Number(new URL(guest.url()).searchParams.get('prospectId'))
    const prospectId = await prospectOfVisit(t, visitId)
    // The answer to the queued sign-in left its feedback token on the phone.
    expect(await keptTokens(guest)).toEqual([`${oh.id}:${visitId}`])
    const feedbackUrl = guest.url().replace('/new/confirm?', '/feedback?')

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

    // Changing its mind later on the same phone, the visitor can still leave feedback.
    await guest.goto(feedbackUrl)
    await arrive(guest, /\/public\/OpenHouseToday\/feedback\?/, 'Your Feedback')
    await guest.getByLabel('Anything else you would like to share?').fill('Great signal in the garden.')
    await guest.getByRole('button', { name: 'Submit Feedback' }).click()
    await arrive(guest, /\/public\/OpenHouseToday\/feedback\/confirm\?/, 'Thank you for your feedback!')
    expect(await feedbackOf(oh.id)).toMatchObject([
      { prospectId, feedbackText: 'Great signal in the garden.' },
    ])
  })
})

describe('guest pages when another agent hosts', () => {
  it('names the hosting agent, offers a separate box for the listing agent, and takes feedback only on the phone that signed in', {
    timeout: JOURNEY_MS,
  }, async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Lena', lastName: 'Lister' })
    const host = await makePlannedAgent(t.db, { firstName: 'Hugo', lastName: 'Hostwell' })
    const oh = await hostedByAnother(listing, host)

    const guest = await newPage(await phone())
    await guest.goto(
      `${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`,
    )
    await arrive(guest, /\/public\/OpenHouseToday\?/, 'Welcome to our Open House')
    await guest.getByText('Please sign in so Hugo Hostwell can share details about this home').waitFor()
    await guest.getByRole('link', { name: 'Sign In' }).first().click()
    await arrive(guest, /\/public\/OpenHouseToday\/new\?/, 'Sign In')

    // The lead is the host's: every consent for contact names the host, never the listing agent…
    await guest.getByRole('group', { name: 'May Hugo Hostwell contact you?' }).waitFor()
    const contact = 'I agree that Hugo Hostwell, who is hosting this open house, may contact me by'
    const email = guest.getByRole('checkbox', { name: `${contact} email` })
    await email.waitFor()
    await guest.getByRole('checkbox', { name: `${contact} text message` }).waitFor()
    expect(await guest.getByRole('checkbox', { name: /Lena Lister/ }).count()).toBe(1)
    // …and sharing with the listing agent is a second, separate box, left unticked.
    const share = guest.getByRole('checkbox', {
      name: 'Also share my name, email and phone with the listing agent, Lena Lister, who may contact me about this home.',
    })
    expect(await share.isChecked()).toBe(false)
    expect(await share.getAttribute('name')).toBe('listingAgentConsent')

    await fillSignIn(guest, {
      first: 'Riley',
      last: 'Stone',
      email: 'riley.stone@example.com',
      phone: '404 555 0177',
    })
    await email.check()
    await share.check()
    await shot(guest, '8-sign-in-hosted-by-another')
    await expectAccessible(guest, 'the guest sign-in page with the listing-agent box')
    await guest.getByRole('button', { name: 'Sign In' }).click()
    await arrive(
      guest,
      /\/public\/OpenHouseToday\/new\/confirm\?.*prospectId=\d+/,
      'Thank you for signing in!',
    )

    // The URL carries the visit's id, never the prospect's (decision 029).
    const visitId = Number(new URL(guest.url()).searchParams.get('prospectId'))
    const prospectId = await prospectOfVisit(t, visitId)
    const stored = await prospectOf(prospectId)
    expect(stored).toMatchObject({ createdByReAgentId: host.agent.id, emailConsent: true, smsConsent: false })
    expect(stored.consentText).toBe(
      'I agree that Hugo Hostwell, who is hosting this open house, may contact me by email about this home and similar homes. I can ask them to stop at any time. ' +
        'Also share my name, email and phone with the listing agent, Lena Lister, who may contact me about this home.',
    )
    expect(await attendeesOf(oh.id)).toMatchObject([{ prospectId, listingAgentConsent: true }])

    // Feedback from the phone that signed in carries its token and is saved.
    await guest.getByRole('link', { name: 'Yes, Sure!' }).click()
    await arrive(guest, /\/public\/OpenHouseToday\/feedback\?/, 'Your Feedback')
    await guest.getByRole('button', { name: 'Rate more details' }).click()
    await guest
      .getByRole('group', { name: 'Professionalism' })
      .getByRole('radio', { name: '5', exact: true })
      .check()
    await guest.getByRole('button', { name: 'Submit Feedback' }).click()
    await arrive(guest, /\/public\/OpenHouseToday\/feedback\/confirm\?/, 'Thank you for your feedback!')
    expect(await feedbackOf(oh.id)).toMatchObject([
      { prospectId, hostingReAgentId: host.agent.id, agentProfessionalism: 5 },
    ])

    // The same link on another phone has no token: it says how to get one instead of a form.
    const other = await newPage(await phone())
    await other.goto(guest.url().replace('/feedback/confirm?', '/feedback?'))
    await arrive(other, /\/public\/OpenHouseToday\/feedback\?/, 'Your Feedback')
    await other.getByText(NO_TOKEN).waitFor()
    await expectAccessible(other, 'the feedback page on a phone that did not sign in')
    expect(await other.getByRole('button', { name: 'Submit Feedback' }).count()).toBe(0)
    await other.getByRole('link', { name: 'Sign In' }).click()
    await arrive(other, /\/public\/OpenHouseToday\/new\?/, 'Sign In')
    expect(await feedbackOf(oh.id)).toHaveLength(1)
  })

  it('tells a visitor an open house that is neither published nor hosted is not open for sign-in', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Nora', lastName: 'Notyet' })
    const oh = await scheduleOpenHouse(t, listing)
    const guest = await newPage(await phone())
    for (const page of ['', '/new', '/feedback']) {
      await guest.goto(
        `${t.url}/public/OpenHouseToday${page}?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}`,
      )
      await guest.getByRole('alert').filter({ hasText: 'This open house is not open for sign-in.' }).waitFor()
      await expectAccessible(guest, `/public/OpenHouseToday${page} of an open house not open for sign-in`)
    }
    expect(await guest.getByRole('button', { name: 'Sign In' }).count()).toBe(0)
    expect(await guest.getByText('Nora Notyet').count()).toBe(0)
  })
  it('tells a visitor who scans a day after the open house ended that it has ended, without the form', async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    await t.db
      .updateTable('openHouse')
      .set({ endsAt: new Date(Date.now() - 26 * 60 * 60 * 1000) })
      .where('id', '=', oh.id)
      .execute()
    const guest = await newPage(await phone())
    await guest.goto(
      `${t.url}/public/OpenHouseToday/new?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}`,
    )
    await guest
      .getByRole('status')
      .filter({ hasText: 'This open house has ended. Thank you for your interest.' })
      .waitFor()
    expect(await guest.getByRole('button', { name: 'Sign In' }).count()).toBe(0)
    await expectAccessible(guest, 'the guest sign-in page of an open house that has ended')
  })
})
