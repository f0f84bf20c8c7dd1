import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { expectAccessible, launchBrowser, PHONE_WIDTH, tabTo } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'

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

const contexts: BrowserContext[] = []
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})

/** A page in a browser of its own (no cache, no storage), whose errors and scripts are recorded. */
async function freshPage(width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  contexts.push(context)
  const fresh = await context.newPage()
  const scripts: string[] = []
  const errors: string[] = []
  fresh.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname)
  })
  fresh.on('pageerror', (err) => errors.push(err.message))
  fresh.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text())
  })
  return { page: fresh, scripts, errors }
}

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
    // With their unit: 20 is a month's share of the year's 240, not the year's allowance.
    expect(await team.getByTestId('plan-limit-create').textContent()).toBe('20 per month')
    expect(await team.getByTestId('plan-limit-publish').textContent()).toBe('10 per month')
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

  it('shows a visitor the landing page without downloading the agent app, every link reachable by keyboard', async () => {
    const { page: visitor, scripts, errors } = await freshPage()
    await visitor.goto(t.url)
    await visitor.getByRole('heading', { level: 1, name: /free for SOLO agents/ }).waitFor()
    // The page carries its script: no script file is fetched, the app's least of all.
    expect(scripts).toEqual([])
    const hrefs = await visitor
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]))
    expect(hrefs).toEqual([
      ['Skip to main content', '#main'],
      ['Porchlight', '/'],
      ['Pricing', '/pricingplans'],
      ['Sign Up', '/signup'],
      ['Sign In', '/signin'],
      ['Start lead generation', '/signup'],
      ['Explore open house opportunities', '/signin'],
      ['Compare pricing plans', '/pricingplans'],
    ])
    for (const name of ['Sign In', 'Start lead generation', 'Explore open house opportunities']) {
      await tabTo(visitor, visitor.getByRole('link', { name, exact: true }))
    }
    await visitor.keyboard.press('Enter')
    await visitor.waitForURL(`${t.url}/signin`)
    await visitor.getByRole('heading', { level: 1 }).waitFor()
    expect(errors).toEqual([])
  })

  it('folds the menu behind a toggle at phone width, opened and closed by keyboard', async () => {
    const { page: phone, errors } = await freshPage(PHONE_WIDTH)
    await phone.goto(t.url)
    const toggle = phone.getByRole('button', { name: 'Menu' })
    const signIn = phone.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' })
    expect(await signIn.isVisible()).toBe(false)
    await tabTo(phone, toggle)
    await phone.keyboard.press('Enter')
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    await signIn.waitFor()
    await expectAccessible(phone, 'the landing page with its menu open')
    await tabTo(phone, signIn)
    await phone.keyboard.press('Escape')
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await signIn.isVisible()).toBe(false)
    await phone.keyboard.press('Enter')
    await phone.getByRole('link', { name: 'Pricing', exact: true }).click()
    await phone.waitForURL(`${t.url}/pricingplans`)
    await phone.getByRole('article', { name: 'Team' }).waitFor()
    expect(errors).toEqual([])
  })

  it('gives a signed-in agent at / the landing page under its own menu, as the app does', async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Sol' })
    const profile = await t.call('GET', `/reagentmgmt/getREAgentDetails/${agent.agent.id}`, {
      token: agent.token,
    })
    const { page: signedIn, scripts, errors } = await freshPage()
    await signedIn.goto(t.url)
    await signedIn.evaluate(
      ({ token, profile }) => {
        localStorage.setItem('porchlightUserToken', token)
        localStorage.setItem('porchlightLoggedInProfile', profile)
      },
      { token: agent.token, profile: JSON.stringify(profile.body.data) },
    )
    await signedIn.goto(t.url)
    const menu = signedIn.getByRole('navigation', { name: 'Main' })
    await menu.getByRole('link', { name: 'Welcome, Sol' }).waitFor()
    expect(await menu.getByRole('link', { name: 'Sign In' }).count()).toBe(0)
    expect(scripts.some((src) => src.startsWith('/assets/'))).toBe(true)
    await signedIn.getByRole('heading', { level: 1, name: /free for SOLO agents/ }).waitFor()
    await expectAccessible(signedIn, 'the landing page, signed in')
    await menu.getByRole('link', { name: 'Dashboard' }).click()
    await signedIn.waitForURL(`${t.url}/dashboard`)
    expect(errors).toEqual([])
  })
})
