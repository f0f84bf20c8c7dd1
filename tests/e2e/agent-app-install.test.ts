// The installable agent app (issue 34, decision 050): a valid manifest, Chromium's own installability
// check passes (what Lighthouse's installability audit asked of it), the agent's service worker serves no
// /api answer from a cache, and the "Enable notifications" step comes after sign-in, never on a first visit.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, CHROMIUM, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent, makeTeam } from '../support/factories.ts'
import { publish, scheduleOpenHouse } from '../support/open-houses.ts'
import { newVapidKeys } from '../support/push-service.ts'

let t: TestApp
const browser = browserHarness(() => t)
const vapid = newVapidKeys()

beforeAll(async () => {
  t = await buildTestApp({
    web: true,
    env: { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey },
  })
})
afterAll(() => t?.close())

/** What the test uses of a service worker's global scope (the tests compile without the webworker lib). */
interface ShownNotification {
  title: string
  body: string
  actions: Array<{ title: string }>
}
interface WorkerScope {
  dispatchEvent(event: Event): boolean
  registration: { getNotifications(): Promise<ShownNotification[]> }
}

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

describe('the agent app', () => {
  it('is installable: its manifest is valid and Chromium finds nothing missing', {
    timeout: 60_000,
  }, async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Ivy' })
    // A profile of its own, as an agent's phone has: Chromium never offers to install from an incognito
    // context (a test browser's default), so its check would fail on that alone.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'porchlight-install-'))
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
      ...phone,
    })
    try {
      const page = context.pages()[0] ?? (await context.newPage())
      const profileRow = await t.call('GET', `/reagentmgmt/getREAgentDetails/${agent.agent.id}`, {
        token: agent.token,
      })
      await page.goto(t.url)
      await page.evaluate(
        ({ token, profile }) => {
          localStorage.setItem('porchlightUserToken', token)
          localStorage.setItem('porchlightLoggedInProfile', profile)
        },
        { token: agent.token, profile: JSON.stringify(profileRow.body.data) },
      )
      await page.goto(`${t.url}/dashboard`)
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 20_000 })
      await page.evaluate(() => navigator.serviceWorker.ready)
      const cdp = await context.newCDPSession(page)
      const manifest = (await cdp.send('Page.getAppManifest')) as {
        url: string
        errors: Array<{ message: string }>
        data?: string
      }
      expect(manifest.url).toBe(`${t.url}/manifest.webmanifest`)
      expect(manifest.errors).toEqual([])
      const data = JSON.parse(manifest.data ?? '{}')
      expect(data).toMatchObject({ name: 'Porchlight', start_url: '/dashboard', display: 'standalone' })
      expect(data.theme_color).toMatch(/^#[0-9a-f]{6}$/i)
      // Every icon it names is there, a PNG of the size it says.
      for (const icon of data.icons as Array<{ src: string; sizes: string; type: string }>) {
        const res = await fetch(new URL(icon.src, t.url))
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toBe('image/png')
        const png = Buffer.from(await res.arrayBuffer())
        const [w, h] = icon.sizes.split('x').map(Number)
        expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([w, h])
      }
      const installable = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: Array<{ errorId: string }>
      }
      expect(installable.installabilityErrors).toEqual([])
    } finally {
      await context.close()
      fs.rmSync(profile, { recursive: true, force: true })
    }
  })

  it("serves no /api answer from the service worker's cache", { timeout: 60_000 }, async () => {
    const agent = await makePlannedAgent(t.db, { firstName: 'Noa' })
    const page = await browser.signedIn(agent, phone)
    await page.goto(`${t.url}/dashboard`)
    await page.evaluate(() => navigator.serviceWorker.ready)
    await page.reload()
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL))
      .toBe(`${t.url}/agent-sw.js`)
    const fromWorker: string[] = []
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/') && response.fromServiceWorker())
        fromWorker.push(response.url())
    })
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
    await page.goto(`${t.url}/mystuff?activeSection=notifications`)
    await page.getByRole('heading', { name: 'Notifications', level: 2 }).waitFor()
    expect(fromWorker).toEqual([])
    // Nothing of the API is kept, and with no connection an API call fails rather than answering old data.
    const cached = await page.evaluate(async () => {
      const urls: string[] = []
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url)
      }
      return urls
    })
    expect(cached.filter((u) => new URL(u).pathname.startsWith('/api/'))).toEqual([])
    await page.context().setOffline(true)
    const offline = await page.evaluate(() =>
      fetch('/api/notificationmgmt/notificationSettings').then(
        (r) => `answered ${r.status}`,
        () => 'failed',
      ),
    )
    expect(offline).toBe('failed')
    await page.context().setOffline(false)
  })

  it('asks to enable notifications after sign-in, explaining why, and never on a first visit', {
    timeout: 60_000,
  }, async () => {
    const first = await browser.newPage(phone)
    await first.goto(t.url)
    await first.waitForLoadState('networkidle')
    await expect(first.getByRole('button', { name: 'Enable notifications' }).count()).resolves.toBe(0)

    const agent = await makePlannedAgent(t.db, { firstName: 'Ada' })
    const page = await browser.signedIn(agent, phone)
    await page.goto(`${t.url}/dashboard`)
    const step = page.getByRole('button', { name: 'Enable notifications' })
    await step.waitFor()
    await page.getByText('Claim open houses from your lock screen').waitFor()
    await expectAccessible(page, 'the dashboard with the Enable notifications step')
    await page.getByRole('button', { name: 'Not now' }).click()
    await expect.poll(() => step.count()).toBe(0)

    await page.goto(`${t.url}/mystuff?activeSection=notifications`)
    await page.getByRole('heading', { name: 'Notifications', level: 2 }).waitFor()
    const everyone = page.getByRole('checkbox', { name: 'An open house is offered to everyone' })
    expect(await everyone.isChecked()).toBe(false)
    await page.getByText('An open house is offered to everyone').click()
    await expect.poll(() => everyone.isChecked()).toBe(true)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Saved').first().waitFor()
    await expectAccessible(page, 'My Stuff → Notifications')
    const saved = await t.call('GET', '/notificationmgmt/notificationSettings', { token: agent.token })
    expect(saved.body.data.events).toContain('offer.everyone')
  })

  it("claims from the notification's Claim action and says so", { timeout: 60_000 }, async () => {
    const lena = await makePlannedAgent(t.db, { firstName: 'Lena', role: 'Team Lead' })
    const cole = await makePlannedAgent(t.db, { firstName: 'Cole' })
    await makeTeam(t.db, lena, [cole])
    // Cole's phone is subscribed (its push service is never called here: no worker runs).
    await t.db
      .insertInto('pushSubscription')
      .values({
        reAgentId: cole.agent.id,
        endpoint: 'https://push.example.com/send/cole',
        p256dh: Buffer.alloc(65, 4).toString('base64url'),
        auth: Buffer.alloc(16, 1).toString('base64url'),
      })
      .execute()
    const oh = await scheduleOpenHouse(t, lena)
    expect((await publish(t, lena, oh.id, 'Real Estate Team')).status).toBe(200)
    // The push as the phone would decrypt it.
    const message = await t.db
      .selectFrom('pushMessage')
      .select('payload')
      .where('openHouseId', '=', oh.id)
      .executeTakeFirstOrThrow()
    const pushed = JSON.parse(t.app.deps.secrets.open(message.payload, 'push_message.payload'))

    const page = await browser.signedIn(cole, phone)
    await page.context().grantPermissions(['notifications'], { origin: t.url })
    await page.goto(`${t.url}/dashboard`)
    await page.evaluate(() => navigator.serviceWorker.ready)
    const worker = page.context().serviceWorkers()[0] ?? (await page.context().waitForEvent('serviceworker'))
    // The worker shows the push, then the agent taps "Claim" on it.
    const shown = await worker.evaluate(async (data) => {
      const sw = self as unknown as WorkerScope
      let shownPush: Promise<unknown> = Promise.resolve()
      const push = Object.assign(new Event('push'), {
        data: { json: () => data },
        waitUntil: (p: Promise<unknown>) => {
          shownPush = p
        },
      })
      sw.dispatchEvent(push)
      await shownPush
      const [notification] = await sw.registration.getNotifications()
      if (!notification) return null
      const seen = {
        title: notification.title,
        body: notification.body,
        actions: notification.actions.map((a) => a.title),
      }
      let done: Promise<unknown> = Promise.resolve()
      const click = Object.assign(new Event('notificationclick'), {
        notification,
        action: 'claim',
        waitUntil: (p: Promise<unknown>) => {
          done = p
        },
      })
      sw.dispatchEvent(click)
      await done
      const after = await sw.registration.getNotifications()
      return { seen, after: after.map((n) => ({ title: n.title, body: n.body })) }
    }, pushed)
    expect(shown?.seen).toEqual({ title: 'Open house to host', body: pushed.body, actions: ['Claim'] })
    expect(shown?.after).toEqual([
      { title: "You're hosting", body: expect.stringMatching(/^You're hosting /) },
    ])
    const row = await t.db
      .selectFrom('openHouse')
      .select('hostingReAgentId')
      .where('id', '=', oh.id)
      .executeTakeFirstOrThrow()
    expect(row.hostingReAgentId).toBe(cole.agent.id)
  })
})
