import { execFile } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompressDir } from '../../web/build/precompress.mjs'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness, expectAccessible } from '../support/browser.ts'
import { makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// A visitor's phone at the door: it opened a guest page once with a signal, then scans again with none,
// the same QR code or another open house's. No second online visit, no CSP bypass: the page must open
// from what the first visit left, run its own script under the policy it was kept with, and send what
// was signed in there once the signal is back. Then the same across a release: the server is rebuilt
// with new asset hashes while the phone still holds the old page.
//
// The phone reaches the server through a relay this test switches off (nothing gets through, the
// service worker's fetches included) and points at another server (the release), on the same origin.

const webDir = path.resolve(import.meta.dirname, '../../web')
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

/** A TCP relay on a port of its own: to `target`, or, with none, refusing every connection. */
async function startRelay() {
  let target: number | null = null
  const open = new Set<net.Socket>()
  const server = net.createServer((client) => {
    if (target === null) return client.destroy()
    const upstream = net.connect(target, '127.0.0.1')
    for (const socket of [client, upstream]) {
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    /** Sends new connections to `url` (null: none) and cuts every open one. */
    to(url: string | null) {
      target = url === null ? null : Number(new URL(url).port)
      for (const socket of open) socket.destroy()
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * The next release: the guest pages built again, from a changed source (a release marker on <html>),
 * into a dist of their own beside a copy of the agent app.
 */
async function buildNextRelease(from: string): Promise<string> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'porchlight-release-'))
  fs.cpSync(from, out, { recursive: true })
  const script = `
    import { build } from 'vite'
    await build({
      configFile: 'vite.config.ts',
      mode: 'guest',
      logLevel: 'warn',
      build: { outDir: ${JSON.stringify(out)} },
      plugins: [{
        name: 'next-release',
        transform(code, id) {
          if (id.includes('guest-main.tsx')) return code + '\\ndocument.documentElement.dataset.release = "next"\\n'
        },
      }],
    })`
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: webDir })
  // As `pnpm build:web` ends: the compressed copies made again, after the builds (the server sends them).
  await precompressDir(out, 'fast')
  return out
}

let t: TestApp
let relay: Awaited<ReturnType<typeof startRelay>>
const browser = browserHarness(() => ({ url: relay.url, call: t.call }))

beforeAll(async () => {
  t = await buildTestApp({ web: true })
  relay = await startRelay()
  relay.to(t.url)
})
afterAll(async () => {
  await relay?.close()
  await t?.close()
})

const welcome = 'Welcome to our Open House'

async function scheduleTwo() {
  const host = await makePlannedAgent(t.db, { firstName: 'Wren', lastName: 'Host' })
  const guestUrl = async (page: '' | '/new') => {
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const query = `openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`
    return { id: oh.id, url: `${relay.url}/public/OpenHouseToday${page}?${query}` }
  }
  return { scanned: await guestUrl(''), other: await guestUrl('/new') }
}

const attendees = async (openHouseId: number) =>
  (await t.db.selectFrom('openHouseAttendee').select('id').where('openHouseId', '=', openHouseId).execute())
    .length

async function firstVisit(page: Page, url: string) {
  await page.goto(url)
  await page.getByRole('heading', { level: 1, name: welcome }).waitFor()
  // The worker installs on its own once the page is idle; the visitor does nothing more.
  await page.evaluate(() => navigator.serviceWorker.ready)
}

async function goOffline(page: Page) {
  relay.to(null)
  await page.context().setOffline(true)
}

async function goOnline(page: Page, server: string) {
  relay.to(server)
  await page.context().setOffline(false)
}

async function fillSignIn(page: Page, name: string) {
  await page.getByRole('textbox', { name: 'First Name', exact: true }).fill(name)
  await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Offline')
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(`${name.toLowerCase()}@example.com`)
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('404 555 0142')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.getByText('Your sign-in is saved on this phone.').waitFor()
}

/** Each sign-in arrives, once, after the next look at a guest page with a signal. */
async function expectSentOnce(page: Page, url: string, openHouseIds: number[]) {
  await page.goto(url)
  for (const id of openHouseIds) {
    await expect.poll(() => attendees(id), { timeout: 20_000 }).toBe(1)
  }
  await page.reload()
  await page.getByRole('heading', { level: 1, name: welcome }).waitFor()
  await page.waitForTimeout(1000)
  for (const id of openHouseIds) expect(await attendees(id)).toBe(1)
}

describe('a guest page scanned again without a signal', () => {
  it('opens after one online visit, for the same open house and another, and sends what was signed in there once', {
    timeout: 90_000,
  }, async () => {
    const { scanned, other } = await scheduleTwo()
    const page = await browser.newPage(phone)
    await firstVisit(page, scanned.url)

    await goOffline(page)
    await page.goto(scanned.url)
    await page.getByRole('heading', { level: 1, name: welcome }).waitFor()
    // The open house the first visit showed is known: its address and the host's name.
    await page.getByText('Wren Host').waitFor()
    await page.getByRole('link', { name: 'Sign In' }).first().click()
    await fillSignIn(page, 'Ola')

    // A QR code never scanned on this phone: the form still opens and keeps the sign-in.
    await page.goto(other.url)
    await page.getByText('You are offline. You can still sign in').waitFor()
    await expectAccessible(page, 'the sign-in form of an open house never loaded, offline')
    // The kept page runs under the policy it was served with: its own script only.
    await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.injected = true'
      document.head.append(script)
    })
    expect(await page.evaluate(() => 'injected' in window)).toBe(false)
    await fillSignIn(page, 'Odo')
    expect([await attendees(scanned.id), await attendees(other.id)]).toEqual([0, 0])

    await goOnline(page, t.url)
    await expectSentOnce(page, scanned.url, [scanned.id, other.id])
  })

  it('opens the page the phone kept across a release, then takes the new one with the next signal', {
    timeout: 150_000,
  }, async () => {
    const next = await buildNextRelease(t.config.webDist)
    const released = await buildTestApp({ web: true, sameAs: t, configure: (c) => (c.webDist = next) })
    try {
      const { scanned, other } = await scheduleTwo()
      const page = await browser.newPage(phone)
      await firstVisit(page, scanned.url)
      const release = () => page.evaluate(() => document.documentElement.dataset.release ?? 'first')
      const pageCaches = () =>
        page.evaluate(async () => (await caches.keys()).filter((key) => key !== 'porchlight-guest-data'))
      const kept = await pageCaches()
      expect(kept).toHaveLength(1)

      // The release goes out while the phone has no signal: it opens the page it kept, which works.
      await goOffline(page)
      await page.goto(scanned.url)
      await page.getByRole('heading', { level: 1, name: welcome }).waitFor()
      expect(await release()).toBe('first')
      await page.getByRole('link', { name: 'Sign In' }).first().click()
      await fillSignIn(page, 'Ola')

      // With a signal, the phone takes the new page and keeps it in place of the old one.
      await goOnline(page, released.url)
      await page.goto(scanned.url)
      await page.getByRole('heading', { level: 1, name: welcome }).waitFor()
      expect(await release()).toBe('next')
      // The new worker keeps the new page, then drops the old one: one page kept, the new one.
      await expect
        .poll(
          async () => {
            const now = await pageCaches()
            return now.length === 1 && now[0] !== kept[0]
          },
          { timeout: 20_000, message: 'the kept page is the new release’s, alone' },
        )
        .toBe(true)
      await expect.poll(() => attendees(scanned.id), { timeout: 20_000 }).toBe(1)

      // Offline again: the new page opens from the phone, for another open house too.
      await goOffline(page)
      await page.goto(other.url)
      await page.getByText('You are offline. You can still sign in').waitFor()
      expect(await release()).toBe('next')
      await fillSignIn(page, 'Odo')

      await goOnline(page, released.url)
      await expectSentOnce(page, scanned.url, [scanned.id, other.id])
    } finally {
      await released.close()
      fs.rmSync(next, { recursive: true, force: true })
    }
  })
})
