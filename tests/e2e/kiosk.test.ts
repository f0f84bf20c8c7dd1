import { randomUUID } from 'node:crypto'
import { hashPassword } from '@porchlight/server/src/modules/auth/passwords.ts'
import { messages } from '@porchlight/shared'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible, tabTo } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// The host turns a tablet into a sign-in station for a queue of visitors at the door.
let t: TestApp
const browser = browserHarness(() => t)
const PASSWORD = 'kiosk-host-pass-7'

beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(() => t.close())

const tablet = { viewport: { width: 820, height: 1180 }, isMobile: true, hasTouch: true }

async function signInVisitor(
  page: Page,
  first: string,
  whileThanked?: () => Promise<void>,
  email = `${first.toLowerCase()}-${randomUUID().slice(0, 6)}@example.com`,
) {
  const field = (name: string) => page.getByRole('textbox', { name, exact: true })
  await field('First Name').fill(first)
  await field('Last Name').fill('Visitor')
  await field('Email').fill(email)
  await field('Phone').fill('404 555 0150')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.getByText(`Thank you, ${first}!`).waitFor()
  await whileThanked?.()
  // Within seconds the form is empty again for the next visitor.
  await expect.poll(() => field('First Name').inputValue(), { timeout: 8_000 }).toBe('')
}

describe('kiosk mode', () => {
  it('signs in visitors one after another, one offline, each once; leaving needs the agent password', {
    timeout: 90_000,
  }, async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Kit', lastName: 'Kiosk' })
    await t.db
      .updateTable('porchlightUser')
      .set({ porchlightUserPass: await hashPassword(PASSWORD) })
      .where('id', '=', host.user.id)
      .execute()
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const attendees = () =>
      t.db
        .selectFrom('openHouseAttendee')
        .select(['captureDevice', 'capturedOffline'])
        .where('openHouseId', '=', oh.id)
        .execute()

    const page = await browser.signedIn(host, tablet)
    await page.goto(`${t.url}/openhouses/schedule/${oh.id}/manage?rePropertyId=${oh.rePropertyId}`)
    // By keyboard: Kiosk mode, then Start kiosk in the dialog that explains it.
    await tabTo(page, page.getByRole('button', { name: 'Kiosk mode' }))
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Start kiosk' }).waitFor()
    await expectAccessible(page, 'the kiosk confirmation on the board', { alsoAtPhoneWidth: true })
    await page.getByRole('button', { name: 'Start kiosk' }).click()
    await page.waitForURL(/\/public\/OpenHouseToday\/kiosk\?/)
    await page.getByRole('textbox', { name: 'First Name', exact: true }).waitFor()
    // The station holds no agent session: the token is gone here and revoked on the server.
    expect(await page.evaluate(() => localStorage.getItem('porchlightUserToken'))).toBeNull()
    expect((await t.call('GET', '/signing/session', { token: host.token })).status).toBe(403)
    await expectAccessible(page, 'the kiosk sign-in form', { alsoAtPhoneWidth: true })

    await signInVisitor(page, 'Ana', async () =>
      expectAccessible(page, 'the kiosk thanking a visitor', { alsoAtPhoneWidth: true }),
    )
    await page.context().setOffline(true)
    const ben = `ben-${randomUUID().slice(0, 6)}@example.com`
    await signInVisitor(page, 'Ben', undefined, ben)
    expect(await attendees()).toHaveLength(1)
    await page.context().setOffline(false)
    // Meanwhile a visitor signs in on its own phone at the same door.
    const own = await fetch(`${t.url}/api/public/saveProspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone) Mobile' },
      body: JSON.stringify({
        prospectFirstName: 'Cy',
        prospectLastName: 'Phone',
        prospectEmailId: `cy-${randomUUID().slice(0, 6)}@example.com`,
        prospectPhoneNumber: '404 555 0151',
        openHouseId: oh.id,
        clientRequestId: randomUUID(),
      }),
    })
    expect(own.status).toBe(201)
    await signInVisitor(page, 'Dee')
    await expect.poll(async () => (await attendees()).length, { timeout: 20_000 }).toBe(4)
    const rows = await attendees()
    expect(rows.filter((r) => r.captureDevice === 'kiosk')).toHaveLength(3)
    expect(rows.filter((r) => r.captureDevice === 'phone')).toHaveLength(1)
    expect(rows.filter((r) => r.capturedOffline)).toHaveLength(1)

    // Ben's offline sign-in was sent: nothing of it, and no guest token of anyone, stays on the station.
    const stored = () =>
      page.evaluate(() => ({
        tokens: localStorage.getItem('porchlightGuestTokens'),
        pending: localStorage.getItem('porchlightPendingGuestSignIns'),
      }))
    await expect.poll(stored).toEqual({ tokens: null, pending: null })
    // The next visitor at the station tries feedback as Ben (his visit's id in the feedback address):
    // the page has no token to offer, so there is no form, and the server took no feedback.
    const benVisit = await t.db
      .selectFrom('openHouseAttendee as a')
      .innerJoin('prospect as p', 'p.id', 'a.prospectId')
      .select('a.id')
      .where('p.prospectEmailId', '=', ben)
      .executeTakeFirstOrThrow()
    const kiosk = page.url()
    await page.goto(
      `${t.url}/public/OpenHouseToday/feedback?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&prospectId=${benVisit.id}&from=kiosk`,
    )
    await page.getByText('To leave feedback, please sign in at the open house on this phone first.').waitFor()
    expect(await page.getByRole('button', { name: 'Submit Feedback' }).count()).toBe(0)
    expect(
      await t.db.selectFrom('openHouseFeedback').select('id').where('openHouseId', '=', oh.id).execute(),
    ).toEqual([])
    await page.goto(kiosk)
    await page.getByRole('textbox', { name: 'First Name', exact: true }).waitFor()

    // Leaving: a wrong password keeps the kiosk; the agent's own brings back its board.
    await tabTo(page, page.getByRole('button', { name: 'Exit kiosk (agent)' }), 80)
    await page.keyboard.press('Enter')
    const exit = page.getByRole('form', { name: 'Exit kiosk' })
    await exit.waitFor()
    await expectAccessible(page, 'the kiosk with its exit form open', { alsoAtPhoneWidth: true })
    // The queue at the door never reads the agent's email: the form asks for the password alone.
    expect(await exit.getByRole('textbox', { name: 'Agent email' }).count()).toBe(0)
    expect(await page.content()).not.toContain(host.user.porchlightUserEmailId)
    await exit.getByLabel('Agent password').fill('not-the-password')
    await exit.getByRole('button', { name: 'Exit kiosk' }).click()
    await exit.getByText(messages.incorrectEmailAndPassword).waitFor()
    expect(page.url()).toMatch(/\/kiosk\?/)
    await expectAccessible(page, 'the kiosk exit refused')
    await exit.getByLabel('Agent password').fill(PASSWORD)
    await exit.getByRole('button', { name: 'Exit kiosk' }).click()
    await page.waitForURL(new RegExp(`/openhouses/schedule/${oh.id}/manage`))
    await page.getByRole('heading', { level: 1, name: 'Manage Attendees' }).waitFor()
    await expect.poll(() => page.getByTestId('attendee-count').textContent()).toBe('4')
    await expectAccessible(page, 'the board after the kiosk')
  })
})
