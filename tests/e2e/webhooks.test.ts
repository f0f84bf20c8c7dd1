// My Stuff → Integrations in a real browser: an agent adds a webhook endpoint, sees its secret once,
// sends a test event that a receiver in this test gets (signed with that secret), sees it in the log,
// and connects Follow Up Boss; every screen is checked with axe, also at phone width.

import { createHmac } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'

let t: TestApp
let receiver: http.Server
let receiverUrl: string
const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = []

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => {
      body += c
    })
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      res.writeHead(200, { 'content-type': 'text/plain' }).end('received')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/porchlight`
  t = await buildTestApp({ web: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } })
  t.startWorker()
})
afterAll(async () => {
  await t?.close()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
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
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1)
    const [got] = received
    const id = String(got?.headers['webhook-id'])
    const timestamp = String(got?.headers['webhook-timestamp'])
    const signature = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`${id}.${timestamp}.${got?.body}`)
      .digest('base64')
    expect(got?.headers['webhook-signature']).toBe(`v1,${signature}`)
    expect(JSON.parse(got?.body ?? '{}').type).toBe('webhook.test')

    // The log opened with the test event; it shows as delivered, with the receiver's answer.
    const log = card.getByRole('table', { name: 'Deliveries, newest first' })
    await log.getByText('Delivered').waitFor({ timeout: 20_000 })
    await expect.poll(() => log.getByRole('row').nth(1).textContent()).toContain('webhook.test')
    expect(await log.getByRole('row').nth(1).textContent()).toContain('received')
    await expectAccessible(page, 'integrations, delivery log', { alsoAtPhoneWidth: true })

    // Replay sends the same message again.
    await log.getByRole('button', { name: /^Replay the webhook\.test delivery/ }).click()
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2)
    expect(received[1]?.headers['webhook-id']).toBe(id)

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
})
