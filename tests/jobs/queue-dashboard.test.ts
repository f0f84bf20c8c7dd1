import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { launchBrowser } from '../support/browser.ts'

const TOKEN = 'operator-secret-0123456789'
let t: TestApp
let plain: TestApp

beforeAll(async () => {
  t = await buildTestApp({ env: { QUEUE_DASHBOARD_TOKEN: TOKEN } })
  t.startWorker()
  plain = await buildTestApp({ sameAs: t })
})
afterAll(async () => {
  await plain.close()
  await t.close()
})

const basic = (password: string) => ({
  authorization: `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`,
})

describe('the queue dashboard', () => {
  it('asks for the token, then shows every queue with its failed jobs', async () => {
    expect((await fetch(`${t.url}/admin/queues`)).status).toBe(401)
    expect((await fetch(`${t.url}/admin/queues`, { headers: basic('wrong-token-000000') })).status).toBe(401)
    const page = await fetch(`${t.url}/admin/queues`, { headers: basic(TOKEN) })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')

    // A job no processor knows fails at once and must stay visible to the operator.
    await t.app.deps.queues.mail.add('unknown-job', {}, { attempts: 1 })
    await expect.poll(async () => (await t.app.deps.queues.mail.getFailed()).length).toBe(1)
    const api = await fetch(`${t.url}/admin/queues/api/queues?activeQueue=mail&status=failed`, {
      headers: basic(TOKEN),
    })
    const body = await api.json()
    const names = body.queues.map((q: { name: string }) => q.name)
    expect(names).toEqual(expect.arrayContaining(['mail', 'auto-clone']))
    const mail = body.queues.find((q: { name: string }) => q.name === 'mail')
    expect(mail.counts.failed).toBe(1)
    expect(mail.jobs[0].failedReason).toContain('no processor for mail/unknown-job')
  })

  it('is not there without the setting', async () => {
    const res = await fetch(`${plain.url}/admin/queues`)
    expect(res.status).toBe(404)
  })
})

describe('the queue dashboard against a guesser', () => {
  let behind: TestApp
  beforeAll(async () => {
    behind = await buildTestApp({
      sameAs: t,
      env: { QUEUE_DASHBOARD_TOKEN: TOKEN, TRUST_PROXY: '127.0.0.1' },
    })
  })
  afterAll(() => behind.close())

  const from = (client: string, password: string) =>
    fetch(`${behind.url}/admin/queues`, { headers: { ...basic(password), 'x-forwarded-for': client } })

  it('refuses an address after 10 wrong passwords, the right one included, and lets the operator in from elsewhere', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 29; i++) statuses.push((await from('203.0.113.90', `guess-${i}-0000000000`)).status)
    const last = await from('203.0.113.90', 'guess-last-0000000000')
    statuses.push(last.status)
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(20).fill(429)])
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(last.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60)
    expect((await last.json()).error.code).toBe('RATE_LIMITED')
    expect((await from('203.0.113.90', TOKEN)).status).toBe(429)
    // The browser's first visit sends no password and counts as no guess.
    expect(
      (await fetch(`${behind.url}/admin/queues`, { headers: { 'x-forwarded-for': '192.0.2.40' } })).status,
    ).toBe(401)
    expect((await from('192.0.2.40', TOKEN)).status).toBe(200)
  })

  it('allows no inline script, and the dashboard still shows the queues in Chromium under that policy', async () => {
    const page = await fetch(`${t.url}/admin/queues`, { headers: basic(TOKEN) })
    const csp = page.headers.get('content-security-policy') ?? ''
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? /default-src ([^;]*)/.exec(csp)?.[1]
    expect(scriptSrc).toBe("'self'")

    const browser = await launchBrowser()
    try {
      const context = await browser.newContext({ httpCredentials: { username: 'ops', password: TOKEN } })
      const tab = await context.newPage()
      const errors: string[] = []
      tab.on('pageerror', (err) => errors.push(err.message))
      // Every script or style the policy refuses (the page's own listener, before anything loads).
      await tab.addInitScript(() => {
        const w = window as unknown as { refused: string[] }
        w.refused = []
        document.addEventListener('securitypolicyviolation', (e) =>
          w.refused.push(`${e.violatedDirective} ${e.blockedURI}`),
        )
      })
      await tab.goto(`${t.url}/admin/queues`)
      await tab
        .getByRole('link', { name: /auto-clone/ })
        .first()
        .waitFor({ timeout: 20_000 })
      await tab.getByRole('link', { name: /mail/ }).first().click()
      await tab.waitForURL(/\/admin\/queues\/queue\/mail/)
      expect(await tab.evaluate(() => (window as unknown as { refused: string[] }).refused)).toEqual([])
      expect(errors).toEqual([])
    } finally {
      await browser.close()
    }
  })
})
