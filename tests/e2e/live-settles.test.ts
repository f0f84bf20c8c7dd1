import { randomUUID } from 'node:crypto'
import { messages } from '@porchlight/shared'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'

// Live pages that settle by themselves: a guest page opened before its open house is on show, and a
// claimed card in every bystander's Search Open Houses.

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn, newPage } = browserHarness(() => t)

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
const NOT_OPEN =
  'This open house is not open for sign-in. Please check with the agent at the door, or scan the QR code again.'

function guestSignIn(openHouseId: number, firstName: string) {
  return t.call('POST', '/public/saveProspect', {
    body: {
      prospectFirstName: firstName,
      prospectLastName: 'Early',
      prospectEmailId: `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
      prospectPhoneNumber: '404 555 0177',
      workingWithREAgentFlag: 'false',
      openHouseId,
      clientRequestId: randomUUID(),
      listingAgentConsent: 'false',
    },
  })
}

const card = (page: Page, street: string) => page.getByRole('article', { name: street })

describe('a guest page opened before its open house is on show', () => {
  it('comes alive when the open house is published, without a reload, and lists guests live', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Eli', lastName: 'Early' })
    const oh = await scheduleOpenHouse(t, agent)

    const guest = await newPage(PHONE)
    await guest.goto(`${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}`)
    await guest.getByText(NOT_OPEN).waitFor()
    // The same document throughout: nothing reloads the page.
    await guest.evaluate(() => {
      ;(window as unknown as { sameDocument: boolean }).sameDocument = true
    })

    expect((await publish(t, agent, oh.id)).status).toBe(200)
    await guest.getByText('Nobody has signed in yet. Be the first!').waitFor({ timeout: 30_000 })
    expect(await guest.getByRole('link', { name: 'Sign In' }).count()).toBe(2)
    expect(await guest.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    )

    // Live: a guest who signs in now appears without a reload.
    expect((await guestSignIn(oh.id, 'Prompt')).status).toBe(201)
    await guest
      .getByRole('region', { name: /^Signed in today/ })
      .getByRole('listitem')
      .filter({ hasText: 'Prompt E.' })
      .waitFor({ timeout: 10_000 })
    await expectAccessible(guest, 'the guest page come alive')
  }, 90_000)
})

describe('a guest page on a slow link', () => {
  it('keeps a guest it heard live when an older list arrives after them', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Sol', lastName: 'Slowlink' })
    const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
    expect((await guestSignIn(oh.id, 'Before')).status).toBe(201)

    // The page reads its list again once its socket is in the room. On this link that answer is read
    // by the server at once but reaches the phone only after the next guest was heard live. (Service
    // workers off: the request is the page's own, as on a phone whose worker is not installed yet.)
    const guest = await newPage({ ...PHONE, serviceWorkers: 'block' })
    let lists = 0
    // The second list: answered by the server (before the next guest signs in), held by the link until
    // `release`, then delivered.
    let answered!: () => void
    const serverAnswered = new Promise<void>((resolve) => {
      answered = resolve
    })
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const delivered = new Promise<void>((resolve) => {
      void guest.route('**/api/public/getOpenHouseAttendees/**', async (route) => {
        if (++lists !== 2) return route.continue()
        const answer = await route.fetch()
        answered()
        await released
        await route.fulfill({ response: answer })
        resolve()
      })
    })
    await guest.goto(`${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}`)
    const visitor = (name: string) =>
      guest
        .getByRole('region', { name: /^Signed in today/ })
        .getByRole('listitem')
        .filter({ hasText: name })
    await visitor('Before E.').waitFor()
    await serverAnswered

    expect((await guestSignIn(oh.id, 'Heard')).status).toBe(201)
    await visitor('Heard E.').waitFor({ timeout: 10_000 })
    release()
    await delivered
    // The late list (read before Heard signed in) has reached the page and been drawn.
    await guest.waitForFunction(
      () =>
        performance.getEntriesByType('resource').filter((e) => e.name.includes('/getOpenHouseAttendees/'))
          .length >= 2,
    )
    await guest.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => setTimeout(drawn, 50))))
    expect(await visitor('Heard E.').count()).toBe(1)
    expect(await visitor('Before E.').count()).toBe(1)
  }, 60_000)
})

describe('a claimed card for bystanders', () => {
  it('loses its Claim button within a second of the winning claim, and an open Claim dialog says who was quicker', async () => {
    const listing = await makePlannedAgent(t.db, { firstName: 'Lia', lastName: 'Lister' })
    const winner = await makePlannedAgent(t.db, { firstName: 'Wyn', lastName: 'Winner' })
    const bystander = await makePlannedAgent(t.db, { firstName: 'Bea', lastName: 'Bystander' })
    const oh = await scheduleOpenHouse(t, listing)
    expect((await publish(t, listing, oh.id)).status).toBe(200)
    const street: string = (
      await t.call('GET', `/openhousemgmt/getOpenHouseDetails/${oh.id}`, { token: listing.token })
    ).body.data.reProperty.propertyAddress1

    const search = `${t.url}/openhouses?activeSection=searchOH`
    const claimButton = (page: Page) => card(page, street).getByRole('button', { name: `Claim ${street}` })
    const w = await signedIn(winner)
    const b = await signedIn(bystander)
    for (const page of [w, b]) {
      await page.goto(search)
      await claimButton(page).waitFor()
    }
    // The bystander has a second tab with the Claim dialog open on the same card.
    const hesitant = await b.context().newPage()
    await hesitant.goto(search)
    await claimButton(hesitant).click()
    await hesitant.getByRole('alertdialog').getByRole('button', { name: 'Yes, claim it' }).waitFor()

    // When the bystander's card last offered an enabled Claim button, in the page's clock.
    await b.evaluate((name) => {
      const state = window as unknown as { claimGoneAt?: number }
      const offered = () =>
        [...document.querySelectorAll('button')].some(
          (button) => button.textContent?.replace(/\s+/g, ' ').trim() === name && !button.disabled,
        )
      const check = () => {
        if (state.claimGoneAt === undefined && !offered()) state.claimGoneAt = Date.now()
      }
      new MutationObserver(check).observe(document.body, { childList: true, subtree: true, attributes: true })
    }, `Claim ${street}`)

    await claimButton(w).click()
    const claimed = w.waitForResponse((res) => res.url().includes('/claimToHostOpenHouse/'))
    await w.getByRole('alertdialog').getByRole('button', { name: 'Yes, claim it' }).click()
    expect((await claimed).status()).toBe(200)
    const claimedAt = Date.now()
    await w.getByRole('status').filter({ hasText: messages.openHouseClaimed }).waitFor()

    // The bystander: told who took it, and no Claim button within a second.
    await card(b, street).getByText('Claimed by Wyn Winner').waitFor({ timeout: 5_000 })
    expect(await claimButton(b).count()).toBe(0)
    const goneAt = await b.evaluate(() => (window as unknown as { claimGoneAt?: number }).claimGoneAt)
    expect(goneAt, 'the Claim button went').toBeDefined()
    console.info(`a bystander's Claim button went ${(goneAt ?? 0) - claimedAt} ms after the claim answered`)
    expect((goneAt ?? Number.POSITIVE_INFINITY) - claimedAt).toBeLessThan(1_000)
    await expectAccessible(b, 'a card claimed by another agent')

    // The open dialog closed by itself and says the claim is no longer possible.
    await hesitant.getByRole('alertdialog').waitFor({ state: 'detached', timeout: 5_000 })
    await hesitant.getByRole('alert').filter({ hasText: messages.claimFailed }).waitFor()
    await card(b, street).waitFor({ state: 'detached', timeout: 15_000 })
  }, 90_000)
})
