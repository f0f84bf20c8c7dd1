// Load shedding (decision 047): an overloaded API process answers at once, 503 UNAVAILABLE with
// Retry-After in the error shape, instead of letting requests queue until they time out; the guest page
// keeps a sign-in refused that way and sends it, once, when the process has room again.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { browserHarness } from '../support/browser.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

// The thresholds set low: a statement that has to queue for one of the app's five connections for
// more than 1 ms sheds load. The per-address limits are out of the way: this is one client's burst.
let t: TestApp
const browser = browserHarness(() => t)

beforeAll(async () => {
  t = await buildTestApp({
    web: true,
    ownConnections: true,
    env: { SHED_DB_POOL_WAIT_MS: '1', RATE_LIMIT_MAX: '1000000', GUEST_RATE_LIMIT_PER_MINUTE: '1000000' },
  })
})
afterAll(() => t.close())

/** Holds every one of the app's pooled connections until the answer is called (a stuck database). */
async function holdThePool(): Promise<() => Promise<void>> {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const held: Promise<unknown>[] = []
  let started = 0
  for (let i = 0; i < 5; i++) {
    held.push(
      t.app.deps.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx)
        started++
        await released
      }),
    )
  }
  await expect.poll(() => started).toBe(5)
  return async () => {
    release()
    await Promise.all(held)
  }
}

const UNAVAILABLE = {
  error: { code: 'UNAVAILABLE', message: 'Porchlight is briefly unavailable. Please try again in a moment.' },
}

describe('an overloaded API process', () => {
  it("keeps the guest page's refused sign-in on the phone and sends it once, when there is room again", {
    timeout: 90_000,
  }, async () => {
    const host = await makePlannedAgent(t.db, { firstName: 'Wren', lastName: 'Host' })
    const oh = await scheduleOpenHouse(t, host, { publishLevel: 'Hosting Myself' })
    const page = await browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    })
    await page.goto(
      `${t.url}/public/OpenHouseToday?openHouseId=${oh.id}&rePropertyId=${oh.rePropertyId}&reAgentId=${host.agent.id}&from=qrcode`,
    )
    await page.getByRole('heading', { level: 1, name: 'Welcome to our Open House' }).waitFor()
    await page.getByRole('link', { name: 'Sign In' }).first().click()
    await page.getByRole('textbox', { name: 'First Name', exact: true }).fill('Ola')
    await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Overload')
    const email = `ola.${randomUUID().slice(0, 8)}@example.com`
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email)
    await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('404 555 0142')

    const refusals: number[] = []
    page.on('response', (response) => {
      if (response.url().includes('/api/public/saveProspect') && response.status() === 503) refusals.push(503)
    })
    const release = await holdThePool()
    let released = false
    // Another guest's sign-in queues for a connection: the process is now overloaded.
    const queued = fetch(`${t.url}/api/public/saveProspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(guestFields(oh.id)),
    })
    try {
      // The pool's wait is looked at every second: once shedding, the sign-in is refused at once.
      await expect
        .poll(async () => (await fetch(`${t.url}/api/public/appConfig`)).status, {
          timeout: 10_000,
          interval: 100,
        })
        .toBe(503)
      // The liveness check still answers: an orchestrator must not restart a busy process.
      expect((await fetch(`${t.url}/api/health`)).status).toBe(200)
      await page.getByRole('button', { name: 'Sign In' }).click()
      await page.getByText('Your sign-in is saved on this phone.').waitFor()
      expect(refusals.length).toBeGreaterThan(0)
      const visits = () =>
        t.db
          .selectFrom('openHouseAttendee')
          .innerJoin('prospect', 'prospect.id', 'openHouseAttendee.prospectId')
          .select('openHouseAttendee.id')
          .where('openHouseAttendee.openHouseId', '=', oh.id)
          .where('prospect.prospectEmailId', '=', email)
          .execute()
      await release()
      released = true
      expect((await queued).status).toBe(201)
      // The page's queue tries again on its timer (15 s); the sign-in arrives once.
      await expect.poll(async () => (await visits()).length, { timeout: 40_000, interval: 500 }).toBe(1)
      await page.waitForTimeout(1000)
      expect(await visits()).toHaveLength(1)
      expect(await page.evaluate(() => localStorage.getItem('porchlightPendingGuestSignIns'))).toBeNull()
    } finally {
      if (!released) await release()
    }
  })
  it('refuses a burst of sign-ins at once with 503 and Retry-After, in the error shape, and recovers', {
    timeout: 60_000,
  }, async () => {
    const listing = await makePlannedAgent(t.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const answers: Array<{ status: number; retryAfter: string | null; body: unknown; ms: number }> = []
    const signIn = async () => {
      const started = performance.now()
      const res = await fetch(`${t.url}/api/public/saveProspect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(guestFields(oh.id)),
      })
      answers.push({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: await res.json(),
        ms: performance.now() - started,
      })
    }
    // Waves of 40 at once for about three seconds: five connections cannot keep up.
    const until = Date.now() + 3000
    while (Date.now() < until) await Promise.all(Array.from({ length: 40 }, signIn))

    const refused = answers.filter((a) => a.status === 503)
    const taken = answers.filter((a) => a.status === 201)
    expect(refused.length).toBeGreaterThan(0)
    expect(taken.length + refused.length).toBe(answers.length)
    for (const a of refused) {
      expect(a.body).toEqual(UNAVAILABLE)
      expect(a.retryAfter).toBe('5')
    }
    // Every sign-in answered 201 is stored; none refused is.
    const stored = await t.db
      .selectFrom('openHouseAttendee')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('openHouseId', '=', oh.id)
      .executeTakeFirstOrThrow()
    expect(Number(stored.n)).toBe(taken.length)

    // The burst over, the next check finds the pool free and the process takes sign-ins again.
    await expect
      .poll(
        async () =>
          (
            await fetch(`${t.url}/api/public/saveProspect`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(guestFields(oh.id)),
            })
          ).status,
        { timeout: 10_000, interval: 250 },
      )
      .toBe(201)
  })

  it('refuses requests while its event loop is late, past SHED_EVENT_LOOP_DELAY_MS', async () => {
    const late = await buildTestApp({ env: { SHED_EVENT_LOOP_DELAY_MS: '50' } })
    try {
      // The start itself (about a second of compiling routes) is not overload: a process just ready
      // takes requests.
      expect((await fetch(`${late.url}/api/public/appConfig`)).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 2500))
      // Two seconds of work that holds the loop 200 ms at a time, as a flood of CPU-bound requests would.
      const until = performance.now() + 2000
      while (performance.now() < until) {
        const chunk = performance.now() + 200
        while (performance.now() < chunk) {}
        await new Promise((resolve) => setImmediate(resolve))
      }
      const res = await fetch(`${late.url}/api/public/appConfig`)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('5')
      expect(await res.json()).toEqual(UNAVAILABLE)
      expect((await fetch(`${late.url}/api/health`)).status).toBe(200)
      // Only the API is shed: what is not /api/ passes (here, to the not-found answer).
      expect((await fetch(`${late.url}/not-the-api`)).status).toBe(404)
      await expect
        .poll(async () => (await fetch(`${late.url}/api/public/appConfig`)).status, {
          timeout: 10_000,
          interval: 200,
        })
        .toBe(200)
    } finally {
      await late.close()
    }
  })
})
