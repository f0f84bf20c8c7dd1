import { leaseSize } from '@porchlight/server/src/http/rate-limit-store.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makeValidatedUser } from '../support/factories.ts'

let t: TestApp
beforeAll(async () => {
  // The sign-in limit as it ships: 10 a minute per address.
  t = await buildTestApp({ configure: (c) => (c.rateLimit.signInPerMinute = 10) })
})
afterAll(() => t.close())

const signIn = (email: string, pass: string) =>
  t.call('POST', '/signing/authenticate', {
    body: { porchlightUserEmailId: email, porchlightUserPass: pass },
  })

describe('rate limits', () => {
  it('allows 10 sign-ins a minute from one address, then answers 429', async () => {
    const user = await makeValidatedUser(t)
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) statuses.push((await signIn(user.email, user.password)).status)
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true)
    expect(statuses[10]).toBe(429)
  })

  it('allows 5 password resets an hour per account', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await t.call('POST', '/signing/resetUserPassword', {
            body: { porchlightUserEmailId: 'limit@example.com' },
          })
        ).status,
      )
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })

  it('allows 5 code resends an hour per account', async () => {
    const email = `resend-${Date.now()}@example.com`
    const signup = await t.call('POST', '/signing/savePorchlightUser', {
      body: {
        porchlightUserEmailId: email,
        porchlightUserPass: 'porch-light-42',
        porchlightUserPassVerify: 'porch-light-42',
      },
    })
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      statuses.push((await t.call('GET', `/signing/resendVerificationCode/${signup.body.data.id}`)).status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })
})

describe('sign-in failures per account', () => {
  let wide: TestApp
  beforeAll(async () => {
    wide = await buildTestApp()
  })
  afterAll(() => wide.close())

  /** A sign-in from a given address, as the API sees it. */
  const from = async (remoteAddress: string, email: string, pass: string) => {
    const res = await wide.app.inject({
      method: 'POST',
      url: '/api/signing/authenticate',
      remoteAddress,
      payload: { porchlightUserEmailId: email, porchlightUserPass: pass },
    })
    return { status: res.statusCode, body: res.json() }
  }

  it('stops an address after 10 wrong passwords on an account, never the owner elsewhere, and tells the owner', async () => {
    const user = await makeValidatedUser(wide)
    const attacker = '203.0.113.66'
    for (let i = 0; i < 10; i++) expect((await from(attacker, user.email, `wrong-${i}`)).status).toBe(401)
    const stopped = await from(attacker, user.email, user.password)
    expect(stopped.status).toBe(429)
    expect(stopped.body.error.code).toBe('RATE_LIMITED')

    // A hundred more wrong guesses from other addresses lock nobody out.
    for (let i = 0; i < 100; i++) await from(`198.51.100.${i + 1}`, user.email, `wrong-${i}`)
    expect((await from('192.0.2.10', user.email, user.password)).status).toBe(200)

    // The owner hears of it once, not once per guess.
    const notices = await wide.db
      .selectFrom('mail')
      .select('subject')
      .where('toAddress', '=', user.email)
      .where('subject', '=', 'Someone is trying to sign in to your Porchlight account')
      .execute()
    expect(notices).toHaveLength(1)
  }, 60_000)
})

describe('the API limit, counted in Redis a few requests at a time', () => {
  const apps: TestApp[] = []
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close()
  })

  const plans = (app: TestApp, remoteAddress: string) =>
    app.app.inject({ method: 'GET', url: '/api/pricingplanmgmt/getAllOfferedPricingPlans/0', remoteAddress })

  it('lets no more than the limit through across two API processes, and stops a client near it', async () => {
    // 100 a minute: each process takes two counts from Redis at a time (leaseSize).
    expect(leaseSize(100)).toBe(2)
    const first = await buildTestApp({ env: { RATE_LIMIT_MAX: '100' } })
    apps.push(first)
    const second = await buildTestApp({ sameAs: first, env: { RATE_LIMIT_MAX: '100' } })
    apps.push(second)
    const statuses: number[] = []
    for (let i = 0; i < 130; i++)
      statuses.push((await plans(i % 2 === 0 ? first : second, '203.0.113.20')).statusCode)
    const through = statuses.filter((s) => s === 200).length
    // At most one count held unspent by the other process: 99 or 100, never 101.
    expect(through).toBeLessThanOrEqual(100)
    expect(through).toBeGreaterThanOrEqual(99)
    expect(statuses.slice(100).every((s) => s === 429)).toBe(true)
    const stopped = await plans(first, '203.0.113.20')
    expect(stopped.statusCode).toBe(429)
    expect(stopped.json().error.code).toBe('RATE_LIMITED')
    // Another client has a limit of its own.
    expect((await plans(second, '198.51.100.20')).statusCode).toBe(200)
  })

  it('answers a burst of simultaneous requests with exactly the limit', async () => {
    expect(leaseSize(200)).toBe(4)
    const app = await buildTestApp({ env: { RATE_LIMIT_MAX: '200' } })
    apps.push(app)
    const answers = await Promise.all(Array.from({ length: 260 }, () => plans(app, '203.0.113.21')))
    const statuses = answers.map((a) => a.statusCode)
    expect(statuses.filter((s) => s === 200)).toHaveLength(200)
    expect(statuses.filter((s) => s === 429)).toHaveLength(60)
    // The counts given are the plugin's x-ratelimit-remaining: each of 200 down to 0 once.
    const remaining = answers
      .filter((a) => a.statusCode === 200)
      .map((a) => Number(a.headers['x-ratelimit-remaining']))
      .sort((a, b) => a - b)
    expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => i))
  })
})

describe('rate limits while Redis is away', () => {
  let away: TestApp
  beforeAll(async () => {
    away = await buildTestApp({
      sameAs: t,
      env: { REDIS_URL: 'redis://127.0.0.1:1' },
      configure: (c) => (c.rateLimit.signInPerMinute = 10),
    })
  })
  afterAll(() => away.close())

  it('still allows only 10 sign-ins a minute from one address, counted in the process', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) {
      const res = await away.call('POST', '/signing/authenticate', {
        body: { porchlightUserEmailId: 'nobody-here@example.com', porchlightUserPass: `wrong-${i}` },
      })
      statuses.push(res.status)
    }
    expect(statuses.filter((s) => s !== 429)).toHaveLength(10)
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true)
  })
})

describe('behind a load balancer', () => {
  const apps: TestApp[] = []
  afterAll(async () => {
    for (const app of apps) await app.close()
  })

  /** Guest sign-ins (limited per address; the limit counts before the body is read) as from `client`. */
  async function guestTries(app: TestApp, client: string, times: number): Promise<number[]> {
    const statuses: number[] = []
    for (let i = 0; i < times; i++) {
      const res = await fetch(`${app.url}/api/public/saveProspect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
        body: '{}',
      })
      statuses.push(res.status)
    }
    return statuses
  }

  it('counts each client behind a trusted proxy apart, and believes no forwarded address otherwise', async () => {
    const behind = await buildTestApp({
      env: { TRUST_PROXY: '127.0.0.1', GUEST_RATE_LIMIT_PER_MINUTE: '2' },
    })
    apps.push(behind)
    expect(await guestTries(behind, '203.0.113.7', 3)).toEqual([422, 422, 429])
    // Another visitor behind the same balancer has a limit of its own.
    expect(await guestTries(behind, '198.51.100.9', 2)).toEqual([422, 422])

    const direct = await buildTestApp({ env: { GUEST_RATE_LIMIT_PER_MINUTE: '2' } })
    apps.push(direct)
    expect(await guestTries(direct, '203.0.113.7', 2)).toEqual([422, 422])
    // Without TRUST_PROXY a client cannot escape its limit by naming another address.
    expect(await guestTries(direct, '198.51.100.9', 1)).toEqual([429])
  })

  it('refuses a TRUST_PROXY it cannot read, naming the setting', async () => {
    const { loadConfig, ConfigError } = await import('@porchlight/server/src/config.ts')
    expect(() => loadConfig({ TRUST_PROXY: 'the balancer' })).toThrow(ConfigError)
    expect(() => loadConfig({ TRUST_PROXY: 'the balancer' })).toThrow(/TRUST_PROXY/)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ])
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(loadConfig({}).trustProxy).toBe(false)
  })
})
