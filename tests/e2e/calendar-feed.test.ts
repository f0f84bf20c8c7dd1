import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ web: true })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn } = browserHarness(() => t)

describe('the calendar feed block', () => {
  it('shows the agent its secret calendar address on My Stuff, and revoking it gives a new one', async () => {
    const agent = await makePlannedAgent(t.db)
    const page = await signedIn(agent)
    // It is an integration, beside the webhooks, not part of the agent's profile.
    await page.goto(`${t.url}/mystuff`)
    await page
      .getByRole('tabpanel', { name: 'My Real Estate Profile' })
      .getByText('Change Password')
      .waitFor()
    expect(await page.getByRole('region', { name: 'Calendar feed' }).count()).toBe(0)
    await page.getByRole('tab', { name: 'Integrations' }).click()
    await page.waitForURL(/activeSection=integrations/)
    const section = page.getByRole('region', { name: 'Calendar feed' })
    const address = section.getByRole('textbox', { name: 'Calendar address' })
    await address.waitFor()
    const first = await address.inputValue()
    expect(first).toMatch(new RegExp(`^${t.url}/api/public/calendar/[\\w-]{43}\\.ics$`))
    expect(
      await section.getByRole('link', { name: 'Subscribe in your calendar app' }).getAttribute('href'),
    ).toBe(first.replace(/^http:/, 'webcal:'))
    expect((await fetch(first)).status).toBe(200)
    await expectAccessible(page, 'My Stuff with the calendar feed', { alsoAtPhoneWidth: true })

    await section.getByRole('button', { name: 'Revoke address' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Revoke the calendar address?' })
    await confirm.getByRole('button', { name: 'Revoke' }).click()
    await section.getByText('The old address no longer works. This is your new one.').waitFor()
    await expect.poll(() => address.inputValue()).not.toBe(first)
    expect((await fetch(first)).status).toBe(404)
    expect((await fetch(await address.inputValue())).status).toBe(200)
  }, 90_000)
})
