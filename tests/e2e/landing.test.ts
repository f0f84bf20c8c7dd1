import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { expectAccessible, launchBrowser } from '../support/browser.ts'

let t: TestApp
let browser: Browser
let page: Page
const pageErrors: string[] = []

beforeAll(async () => {
  t = await buildTestApp({ web: true })
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (err) => pageErrors.push(err.message))
})
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('landing and pricing in a browser', () => {
  it('says Porchlight is free for solo agents and leads to sign-up and sign-in', async () => {
    await page.goto(t.url)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBeTruthy()
    expect(await page.locator('main').textContent()).toMatch(/free for SOLO agents/i)
    await expectAccessible(page, 'the landing page', { alsoAtPhoneWidth: true })

    await page.getByRole('link', { name: 'Explore open house opportunities' }).click()
    await page.waitForURL(`${t.url}/signin`)
    await page.getByRole('heading', { level: 1 }).waitFor()
    await expectAccessible(page, 'sign-in', { alsoAtPhoneWidth: true })

    await page.goto(t.url)
    await page.getByRole('link', { name: 'Start lead generation' }).click()
    await page.waitForURL(`${t.url}/signup`)
    await page.getByRole('heading', { level: 1 }).waitFor()
    await expectAccessible(page, 'sign-up', { alsoAtPhoneWidth: true })
  })

  it('shows the plans monthly first, then annual prices and per-month counts', async () => {
    await page.goto(t.url)
    await page.getByRole('link', { name: 'Pricing', exact: true }).click()
    await page.waitForURL(`${t.url}/pricingplans`)

    const team = page.getByRole('article', { name: 'Team' })
    const solo = page.getByRole('article', { name: 'Solo' })
    const brokerage = page.getByRole('article', { name: 'Brokerage' })
    await team.waitFor()
    expect(await page.getByRole('radio', { name: 'Monthly' }).isChecked()).toBe(true)
    expect(await team.getByTestId('plan-price').textContent()).toBe('$29.99/month')
    expect(await solo.getByTestId('plan-price').textContent()).toBe('Free')
    expect(await team.getByTestId('plan-limit-create').textContent()).toContain('240')
    expect(await brokerage.getByTestId('plan-limit-create').textContent()).toContain('Unlimited')
    await expectAccessible(page, 'the pricing plans, monthly', { alsoAtPhoneWidth: true })

    await page.getByRole('radio', { name: 'Annual' }).click()
    expect(await page.getByRole('radio', { name: 'Annual' }).isChecked()).toBe(true)
    // 29.99 × 12 less 10 %, rounded; the yearly create and publish counts shown per month.
    await expect.poll(() => team.getByTestId('plan-price').textContent()).toBe('$324/year')
    expect(await team.getByTestId('plan-limit-create').textContent()).toContain('20')
    expect(await team.getByTestId('plan-limit-publish').textContent()).toContain('10')
    expect(await solo.getByTestId('plan-price').textContent()).toBe('Free')
    await expectAccessible(page, 'the pricing plans, annual')
    expect(pageErrors).toEqual([])
  })

  it('serves the app for any deep link and keeps unknown API paths as JSON 404s', async () => {
    const res = await page.goto(`${t.url}/pricingplans?reAgentId=0`)
    expect(res?.status()).toBe(200)
    await page.getByRole('article', { name: 'Team' }).waitFor()
    await expectAccessible(page, 'the pricing plans from a deep link')
    const api = await fetch(`${t.url}/api/unknown`)
    expect(api.status).toBe(404)
    expect((await api.json()).error.code).toBe('NOT_FOUND')
  })
})
