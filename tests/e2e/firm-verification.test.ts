import { randomBytes } from 'node:crypto'
import { messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'

// The first agent of a firm, Pending with nobody to approve it, asks Porchlight from its profile; the
// operator opens /admin/firm-verification, types ADMIN_TOKEN, and verifies it there (decision 038).

const ADMIN_TOKEN = randomBytes(24).toString('hex')
let t: TestApp

beforeAll(async () => {
  t = await buildTestApp({ web: true, env: { ADMIN_TOKEN } })
})
afterAll(async () => {
  await t?.close()
})

const { signedIn, newPage } = browserHarness(() => t)

describe('asking Porchlight to verify a firm membership', () => {
  it('goes from the Pending profile to the operator page and back as Verified', async () => {
    const first = await makePlannedAgent(t.db, {
      brokerFirmLicense: `FIRST-${randomBytes(4).toString('hex')}`,
      firmStatus: 'pending',
      firstName: 'Frieda',
      lastName: 'First',
    })
    const page = await signedIn(first)
    await page.goto(`${t.url}/mystuff`)
    await page.getByText('Firm membership: Pending').waitFor()
    await page.getByRole('button', { name: 'Ask Porchlight to verify me' }).click()
    await page.getByText(messages.firmVerificationRequested).waitFor()
    await expectAccessible(page, 'the Pending profile after asking Porchlight')

    const operator = await newPage()
    await operator.goto(`${t.url}/admin/firm-verification`)
    await operator.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN)
    await operator.getByRole('button', { name: 'Show requests' }).click()
    await operator.getByRole('heading', { name: 'Frieda First' }).waitFor()
    await expectAccessible(operator, 'the operator page with a request')
    await operator.getByRole('button', { name: 'Verify Frieda First' }).click()
    await operator.getByText('Frieda First is now verified', { exact: false }).waitFor()
    await expect.poll(() => operator.getByRole('heading', { name: 'Frieda First' }).count()).toBe(0)

    await page.reload()
    await page.getByText('Firm membership: Verified').waitFor()
    expect(await page.getByRole('button', { name: 'Ask Porchlight to verify me' }).count()).toBe(0)
  })
})
