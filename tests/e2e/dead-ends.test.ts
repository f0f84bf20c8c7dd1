import { hashPassword } from '@porchlight/server/src/modules/auth/passwords.ts'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makeAgent, makePlannedAgent } from '../support/factories.ts'

// The ways out of a screen an agent expects to exist: a link from a mail still works after signing
// in, a signed-in agent is not shown the sign-in form again, and changing plan does not sign it out.

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const browser = browserHarness(() => t)
const PASSWORD = 'Dead-Ends-Passw0rd!'

async function withPassword(agent: { user: { id: number; porchlightUserEmailId: string } }) {
  await t.db
    .updateTable('porchlightUser')
    .set({ porchlightUserPass: await hashPassword(PASSWORD) })
    .where('id', '=', agent.user.id)
    .execute()
  return agent.user.porchlightUserEmailId
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()
const token = (page: Page) => page.evaluate(() => localStorage.getItem('porchlightUserToken'))

describe('no dead ends', () => {
  it('takes an agent who opens a team invitation link signed out to that invitation once it signs in', async () => {
    const lead = await makePlannedAgent(t.db, { role: 'Team Lead', brokerFirmLicense: 'FIRM-LINK' })
    const invited = await makePlannedAgent(t.db, { brokerFirmLicense: 'FIRM-LINK', firstName: 'Ines' })
    const email = await withPassword(invited)
    const team = await t.db
      .insertInto('reTeam')
      .values({
        reTeamName: 'Harbor Hosts',
        teamType: 'Real Estate Team',
        reTeamLeadId: lead.agent.id,
        createdByReAgentId: lead.agent.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db
      .insertInto('reTeamMember')
      .values({ reTeamId: team.id, reAgentId: invited.agent.id, addedByReAgentId: lead.agent.id })
      .execute()

    const page = await browser.newPage()
    // The link of the invitation mail.
    await page.goto(`${t.url}/dashboard?invitation=${team.id}`)
    await page.waitForURL(/\/signin\?/)
    await expect.poll(() => heading(page)).toBe('Sign In')
    await expectAccessible(page, 'sign-in on the way to an invitation', { alsoAtPhoneWidth: true })
    await page.getByRole('textbox', { name: 'Email Id' }).fill(email)
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()

    await page.waitForURL(`${t.url}/dashboard?invitation=${team.id}`)
    // The invitation the link pointed at has the focus, to accept or decline at once.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toContain('Harbor Hosts')
    await page
      .getByRole('button', { name: /Accept/ })
      .first()
      .waitFor()
    await expectAccessible(page, 'the dashboard at the invitation', { alsoAtPhoneWidth: true })
  })

  it('sends a signed-in agent who opens /signin to the dashboard, and shows the form once signed out', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Sol' })
    const page = await browser.signedIn(agent)
    await page.goto(`${t.url}/signin`)
    await page.waitForURL(`${t.url}/dashboard`)
    await expect.poll(() => heading(page)).toBe('Dashboard')

    // A token the server no longer honours: the sign-in form, saying the session expired.
    await t.call('POST', '/signing/signout', { token: agent.token })
    await page.goto(`${t.url}/signin`)
    await page.waitForURL(/\/signin\?session=expired/)
    await expect.poll(() => heading(page)).toBe('Sign In')
    expect(await token(page)).toBeNull()
  })

  it('keeps the session when an agent changes plan, and fills in the email after the first plan choice', {
    timeout: 90_000,
  }, async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Pia' }, 'Solo')
    const page = await browser.signedIn(agent)
    await page.goto(`${t.url}/mystuff?activeSection=myPricingPlan`)
    await page.getByRole('link', { name: 'Change Pricing Plan' }).click()
    await page.waitForURL(/\/pricingplans\?reAgentId=/)
    // A plain agent is offered no Team plan (it cannot create teams): it moves up to Brokerage.
    await page
      .getByRole('article', { name: 'Brokerage' })
      .getByRole('button', { name: /Choose plan/ })
      .click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click()

    await page.waitForURL(`${t.url}/mystuff?activeSection=myPricingPlan`)
    await page.getByRole('status').filter({ hasText: 'You are now on Brokerage' }).waitFor()
    expect(await token(page)).toBe(agent.token)
    await expectAccessible(page, 'My Pricing Plan after a change', { alsoAtPhoneWidth: true })
    // The plan in force is the new one, shown without signing in again.
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Brokerage' }).count()).toBe(1)

    // An agent choosing its first plan (just signed up): SPEC §4's sign-in, the email already there.
    const fresh = await makeAgent(t.db, { firstName: 'Nia' })
    const email = await withPassword(fresh)
    const first = await browser.signedIn(fresh)
    // Any signed-in page keeps the user's details for the session (SPEC §3 client storage).
    await first.goto(`${t.url}/dashboard`)
    await first.waitForURL(/\/pricingplanexpired/)
    await first.goto(`${t.url}/pricingplans?reAgentId=${fresh.agent.id}`)
    await first
      .getByRole('article', { name: 'Solo' })
      .getByRole('button', { name: /Choose plan/ })
      .click()
    await first.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click()
    await first.waitForURL(`${t.url}/signin`)
    await first.getByRole('status').filter({ hasText: 'Pricing Plan added successfully!' }).waitFor()
    expect(await first.getByRole('textbox', { name: 'Email Id' }).inputValue()).toBe(email)
    await first.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
    await first.getByRole('button', { name: 'Sign In', exact: true }).click()
    await first.waitForURL(`${t.url}/dashboard`)
  })
})
