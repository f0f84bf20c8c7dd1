// The owner's prospect detail in the browser: the guest's email consent history, the vCard download and
// an opt-out the agent records for a guest who asked by phone; the dialog is checked with axe.

import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import ICAL from 'ical.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ web: true })
  // The worker writes a consenting guest's opt-in in the ledger (decision 053).
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)

describe('consent and vCard in the prospect detail', () => {
  it('shows the consent history, downloads the vCard and records an opt-out the guest asked for', async () => {
    const owner = await makePlannedAgent(t.db, { firstName: 'Nora', lastName: 'Needham' })
    const oh = await scheduleOpenHouse(t, owner, { publishLevel: 'Hosting Myself' })
    const email = `gina-${randomBytes(3).toString('hex')}@example.com`
    const guest = await t.call('POST', '/public/saveProspect', {
      body: {
        prospectFirstName: 'Gina',
        prospectLastName: 'Visitor',
        prospectEmailId: email,
        prospectPhoneNumber: '404 555 0123',
        openHouseId: oh.id,
        clientRequestId: randomUUID(),
        emailConsent: true,
        consentText: 'Email me about homes like this one.',
      },
    })
    expect(guest.status).toBe(201)
    // The worker has welcomed the guest: its opt-in is in the ledger before the owner looks.
    await expect
      .poll(
        async () =>
          (
            await t.db
              .selectFrom('consentEvent')
              .select('kind')
              .where('reAgentId', '=', owner.agent.id)
              .where('email', '=', email)
              .execute()
          ).map((e) => e.kind),
        { timeout: 15_000 },
      )
      .toEqual(['email_opt_in'])

    const page = await signedIn(owner)
    await page.goto(`${t.url}/prospects`)
    await page.getByRole('button', { name: 'View Gina Visitor' }).click()
    const dialog = page.getByRole('dialog', { name: 'Prospect Details' })
    await dialog.getByRole('heading', { name: 'Email consent' }).waitFor()
    await dialog.getByText('Agreed to email — Open house sign-in', { exact: false }).waitFor()
    await expectAccessible(page, 'prospect detail with consent history')

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: /^Download vCard/ }).click(),
    ])
    expect(download.suggestedFilename()).toBe('Gina-Visitor.vcf')
    const card = new ICAL.Component(ICAL.parse(fs.readFileSync(await download.path(), 'utf8')))
    expect(card.getFirstPropertyValue('fn')).toBe('Gina Visitor')
    expect(card.getFirstPropertyValue('email')).toBe(email)

    await dialog.getByRole('button', { name: 'Stop email to this guest' }).click()
    await dialog.getByText('Unsubscribed from email — Agent').waitFor()
    await dialog.getByRole('button', { name: 'Stop email to this guest' }).waitFor({ state: 'detached' })
    expect(await t.app.deps.consent.optedOut(owner.agent.id, email)).toBe(true)
    await expectAccessible(page, 'prospect detail after the opt-out')
  })

  it('lets the agent turn the follow-up mail off on the schedule form', async () => {
    const owner = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, owner)
    const page = await signedIn(owner)
    await page.goto(`${t.url}/openhouses/schedule/${oh.id}/edit`)
    await page.getByRole('heading', { level: 1, name: 'Edit Open House' }).waitFor()
    const box = page.getByRole('checkbox', { name: /^Send guests who agree to email a follow-up/ })
    expect(await box.isChecked()).toBe(true)
    await box.uncheck({ force: true })
    expect(await box.isChecked()).toBe(false)
    await page.getByRole('button', { name: 'Update' }).click()
    await page.waitForURL(/\/confirm\?/)
    const row = await t.db
      .selectFrom('openHouse')
      .select('followUpMailFlag')
      .where('id', '=', oh.id)
      .executeTakeFirst()
    expect(row?.followUpMailFlag).toBe(false)
  })
})
