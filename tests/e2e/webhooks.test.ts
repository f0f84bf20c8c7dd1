// My Stuff → Integrations in a real browser: an agent adds a webhook endpoint, sees its secret once,
// sends a test event that a receiver in this test gets (signed with that secret), sees it in the log,
// and connects Follow Up Boss; a Follow Up Boss that refused the key shows on the dashboard and on
// Integrations with the leads waiting and a Retry reached from the keyboard; every screen is checked
// with axe, also at phone width.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'
import { guestSignIn, type Receiver, startReceiver, until, verified } from '../support/webhook-receiver.ts'

let t: TestApp
let receiver: Receiver
let receiverUrl: string

beforeAll(async () => {
  receiver = await startReceiver()
  receiverUrl = `${receiver.url}/porchlight`
  // The receiver stands in for Follow Up Boss too (its /v1/… paths).
  t = await buildTestApp({
    web: true,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', FUB_API_URL: receiver.url },
  })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await receiver?.close()
})

const { signedIn } = browserHarness(() => t)

describe('integrations in My Stuff', () => {
  it('adds an endpoint, shows its secret once, sends a test event the receiver gets, and logs it', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Wren' })
    const page = await signedIn(agent)
    await page.goto(`${t.url}/mystuff?activeSection=integrations`)
    await expect
      .poll(() => page.getByRole('tab', { name: 'Integrations' }).getAttribute('aria-selected'))
      .toBe('true')
    await page.getByText('No endpoints yet').waitFor()
    await expectAccessible(page, 'integrations, empty', { alsoAtPhoneWidth: true })

    // A submit without events says what is missing, beside the events.
    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiverUrl)
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await page.getByText('Choose at least one event').waitFor()

    await page.getByRole('textbox', { name: 'Description' }).fill('My CRM')
    // The boxes' labels are what a pointer presses (the inputs are visually hidden, as react-aria does).
    for (const event of ['prospect.created', 'attendee.added']) {
      await page.locator('label').filter({ hasText: event }).click()
      expect(
        await page.getByRole('checkbox', { name: new RegExp(event.replace('.', '\\.')) }).isChecked(),
      ).toBe(true)
    }
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const secretField = page.getByRole('textbox', { name: 'Signing secret' })
    await secretField.waitFor()
    const secret = await secretField.inputValue()
    expect(secret).toMatch(/^whsec_/)
    await expectAccessible(page, 'integrations, secret shown once', { alsoAtPhoneWidth: true })
    await page.getByRole('button', { name: 'I saved it' }).click()
    await expect.poll(() => secretField.count()).toBe(0)

    const card = page.getByRole('listitem').filter({ hasText: receiverUrl })
    await card.getByText('Active').waitFor()
    await card.getByRole('button', { name: 'Send test event' }).click()
    await expect.poll(() => receiver.at('/porchlight').length, { timeout: 20_000 }).toBe(1)
    const [got] = receiver.at('/porchlight')
    const id = String(got?.headers['webhook-id'])
    expect(got && verified(got, secret)).toBe(true)
    expect(JSON.parse(got?.body ?? '{}').type).toBe('webhook.test')

    // The log opened with the test event; it shows as delivered, with the receiver's answer.
    const log = card.getByRole('table', { name: 'Deliveries, newest first' })
    await log.getByText('Delivered').waitFor({ timeout: 20_000 })
    await expect.poll(() => log.getByRole('row').nth(1).textContent()).toContain('webhook.test')
    expect(await log.getByRole('row').nth(1).textContent()).toContain('ok thanks')
    await expectAccessible(page, 'integrations, delivery log', { alsoAtPhoneWidth: true })

    // Replay sends the same message again.
    await log.getByRole('button', { name: /^Replay the webhook\.test delivery/ }).click()
    await expect.poll(() => receiver.at('/porchlight').length, { timeout: 20_000 }).toBe(2)
    expect(receiver.at('/porchlight')[1]?.headers['webhook-id']).toBe(id)

    // Follow Up Boss: the key is kept, and only its last four characters are shown.
    await page.getByLabel('API key').fill('fubkey-1234567890-WXYZ')
    await page.getByRole('button', { name: 'Save API key' }).click()
    await page.getByText('Connected with the key ending in WXYZ.').waitFor()
    expect(await page.getByLabel('New API key').inputValue()).toBe('')
    await expectAccessible(page, 'integrations, Follow Up Boss connected', { alsoAtPhoneWidth: true })

    // Delete asks first, and keyboard users reach it.
    await card.getByRole('button', { name: 'Delete' }).focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('alertdialog', { name: 'Delete this endpoint?' })
    await dialog.waitFor()
    await expectAccessible(page, 'integrations, delete confirmation')
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No endpoints yet').waitFor()
  }, 180_000)

  it("lets a Team Lead add an endpoint for everyone in its team, and shows it as the team's", async () => {
    const lead = await makePlannedAgent(t.db, { firstName: 'Tess', role: 'Team Lead' })
    const member = await makePlannedAgent(t.db, { firstName: 'Milo' })
    const teamId = await makeTeam(t.db, lead, [member])
    const team = await t.db
      .selectFrom('reTeam')
      .select('reTeamName')
      .where('id', '=', teamId)
      .executeTakeFirstOrThrow()
    const page = await signedIn(lead)
    await page.goto(`${t.url}/mystuff?activeSection=integrations`)
    await page.getByText('No endpoints yet').waitFor()

    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(`${receiver.url}/team`)
    // The choice of whose events, by keyboard: it lists the agent's own and the team it leads.
    await page.getByRole('button', { name: /Whose events/ }).focus()
    await page.keyboard.press('Enter')
    await page.getByRole('option', { name: `Everyone in ${team.reTeamName}` }).waitFor()
    await expectAccessible(page, 'integrations, whose events open')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByRole('button', { name: /Whose events/ }).textContent())
      .toContain(`Everyone in ${team.reTeamName}`)
    await page.locator('label').filter({ hasText: 'prospect.created' }).click()
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await page.getByRole('textbox', { name: 'Signing secret' }).waitFor()
    await page.getByRole('button', { name: 'I saved it' }).click()

    const card = page.getByRole('listitem').filter({ hasText: `${receiver.url}/team` })
    await card.getByText(`For everyone in ${team.reTeamName}`).waitFor()
    await expectAccessible(page, 'integrations, a team endpoint', { alsoAtPhoneWidth: true })
    const [saved] = await t.db
      .selectFrom('webhookEndpoint')
      .select(['teamId', 'reAgentId'])
      .execute()
      .then((rows) => rows.filter((r) => r.teamId === teamId))
    expect(saved).toEqual({ teamId, reAgentId: lead.agent.id })

    // The member sees no team choice and no team endpoint of its own.
    const memberPage = await signedIn(member)
    await memberPage.goto(`${t.url}/mystuff?activeSection=integrations`)
    await memberPage.getByText('No endpoints yet').waitFor()
    expect(await memberPage.getByRole('button', { name: /Whose events/ }).count()).toBe(0)
  }, 120_000)

  it('shows a refused Follow Up Boss key on the dashboard and Integrations, and Retry sends the waiting lead', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Kit' })
    const saved = await t.call('POST', '/webhookmgmt/saveFubConnector', {
      token: agent.token,
      body: { apiKey: 'fubkey-refused-000-ABCD' },
    })
    expect(saved.status).toBe(200)
    const oh = await scheduleOpenHouse(t, agent, { publishLevel: 'Hosting Myself' })
    receiver.byPath['/v1/events'] = [
      {
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: '{"errorMessage":"Invalid API key."}',
      },
    ]
    await guestSignIn(t, oh.id, { prospectEmailId: 'kit-guest@example.com' })
    await until(
      async () =>
        (await t.call('GET', '/webhookmgmt/getFubConnector', { token: agent.token })).body.data.status ===
        'rejected',
      'the key refused',
    )

    const page = await signedIn(agent)
    await page.goto(`${t.url}/dashboard`)
    const banner = page.getByRole('alert').filter({ hasText: 'Follow Up Boss refused your API key' })
    await banner.waitFor()
    await banner.getByText('1 lead is waiting in Porchlight; none is lost.').waitFor()
    await expectAccessible(page, 'dashboard, Follow Up Boss refused', { alsoAtPhoneWidth: true })
    await banner.getByRole('link', { name: 'Open Integrations' }).focus()
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByRole('tab', { name: 'Integrations' }).getAttribute('aria-selected'))
      .toBe('true')

    const status = page.getByRole('alert').filter({ hasText: 'Follow Up Boss refused your API key' })
    await status.getByText(/Last error .*Invalid API key\./).waitFor()
    await status.getByText(/1 lead is waiting in Porchlight; none is lost\./).waitFor()
    await expectAccessible(page, 'integrations, Follow Up Boss refused', { alsoAtPhoneWidth: true })

    // From Disconnect, Tab reaches Retry; Enter sends the waiting lead (Follow Up Boss takes it now).
    await page.getByRole('button', { name: 'Disconnect' }).focus()
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab')
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Retry') break
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Retry')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => receiver.at('/v1/events').filter((r) => r.body.includes('kit-guest@example.com')).length, {
        timeout: 20_000,
      })
      .toBe(2)
    await expect.poll(() => status.count(), { timeout: 15_000 }).toBe(0)
  }, 120_000)
})
