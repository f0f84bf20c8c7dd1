import { leaseSize } from '@porchlight/server/src/http/rate-limit-store.ts'
import { messages } from '@porchlight/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makeValidatedUser } from '../support/factories.ts'
import { type OwnRedis, startOwnRedis } from '../support/redis-server.ts'

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

/** The mail's temporary password (the owner's way in), read where the outbox keeps it. */
async function temporaryPasswordOf(app: TestApp, email: string): Promise<string> {
  const mail = await app.db
    .selectFrom('mail')
    .select('textBody')
    .where('toAddress', '=', email)
    .where('subject', '=', 'Your Porchlight temporary password')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()
  return /\n\n([A-Za-z0-9]{12})\n\n/.exec(mail.textBody)?.[1] ?? ''
}

/** A sign-in from `client`, as a load balancer trusted with TRUST_PROXY forwards it. */
async function signInFrom(app: TestApp, client: string, email: string, pass: string) {
  const res = await fetch(`${app.url}/api/signing/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ porchlightUserEmailId: email, porchlightUserPass: pass }),
  })
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() }
}

/** `n` guesses at `email`, each from an address of its own (none reaches the per-address limits). */
async function guessesFromEverywhere(app: TestApp, email: string, n: number, net = '198.51.100') {
  const answers = []
  for (let i = 0; i < n; i++) answers.push(await signInFrom(app, `${net}.${i + 1}`, email, `guess-${i}`))
  return answers
}

describe('sign-in failures per account', () => {
  let wide: TestApp
  beforeAll(async () => {
    wide = await buildTestApp({ env: { TRUST_PROXY: '127.0.0.1' } })
  })
  afterAll(() => wide.close())

  it('pauses password sign-in to an account after 10 wrong guesses from 60 addresses, owner included, with Retry-After', async () => {
    const user = await makeValidatedUser(wide)
    const answers = await guessesFromEverywhere(wide, user.email, 60)
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(401))
    expect(answers.slice(10).map((a) => a.status)).toEqual(Array(50).fill(429))
    const paused = answers[59]
    expect(paused?.body).toEqual({ error: { code: 'RATE_LIMITED', message: messages.signInPaused } })
    expect(Number(paused?.retryAfter)).toBeGreaterThan(0)
    expect(Number(paused?.retryAfter)).toBeLessThanOrEqual(15 * 60)

    // The right password is no way past the pause: the 61st guess could be right.
    const owner = await signInFrom(wide, '192.0.2.10', user.email, user.password)
    expect(owner.status).toBe(429)
    expect(owner.body.error.code).toBe('RATE_LIMITED')

    // The owner hears of it once, not once per guess.
    const notices = await wide.db
      .selectFrom('mail')
      .select('subject')
      .where('toAddress', '=', user.email)
      .where('subject', '=', 'Someone is trying to sign in to your Porchlight account')
      .execute()
    expect(notices).toHaveLength(1)
  }, 60_000)

  it('judges no more than 10 guesses when 60 arrive at once from 60 addresses', async () => {
    const user = await makeValidatedUser(wide)
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signInFrom(wide, `198.51.107.${i + 1}`, user.email, `guess-${i}`)),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(10)
    expect(statuses.filter((s) => s === 429)).toHaveLength(50)
  }, 60_000)

  it("keeps the owner's way in: a mailed temporary password signs in while the door is paused, a guessed one does not", async () => {
    const user = await makeValidatedUser(wide)
    await guessesFromEverywhere(wide, user.email, 12, '198.51.101')
    expect((await signInFrom(wide, '192.0.2.11', user.email, user.password)).status).toBe(429)

    const reset = await wide.call('POST', '/signing/resetUserPassword', {
      body: { porchlightUserEmailId: user.email },
    })
    expect(reset.status).toBe(200)
    const temp = await temporaryPasswordOf(wide, user.email)
    expect(temp).toHaveLength(12)

    // Guessing temporary passwords gets the attacker the same 429 as any other guess.
    const guessed = await signInFrom(wide, '198.51.101.200', user.email, 'ABCDEFGHJKLM')
    expect(guessed.status).toBe(429)

    const owner = await signInFrom(wide, '192.0.2.11', user.email, temp)
    expect(owner.status).toBe(200)
    expect(owner.body.data.mustChangePassword).toBe(true)
    expect(owner.body.data.porchlightUserDTO.porchlightUserToken).toEqual(expect.any(String))
    // Used once, like any temporary password.
    expect((await signInFrom(wide, '192.0.2.11', user.email, temp)).status).toBe(429)
  }, 60_000)

  it('answers an email nobody has exactly as an account once paused: the pause tells nothing', async () => {
    const known = await makeValidatedUser(wide)
    const unknown = `nobody-${Date.now()}@example.com`
    const knownAnswers = await guessesFromEverywhere(wide, known.email, 15, '198.51.102')
    const unknownAnswers = await guessesFromEverywhere(wide, unknown, 15, '198.51.103')
    expect(unknownAnswers.slice(10).map((a) => a.status)).toEqual(Array(5).fill(429))
    expect(unknownAnswers.slice(10).map((a) => a.body)).toEqual(knownAnswers.slice(10).map((a) => a.body))
    expect(unknownAnswers[14]?.retryAfter).toEqual(expect.any(String))
  }, 60_000)

  it('still stops one address after 10 wrong passwords on an account', async () => {
    const user = await makeValidatedUser(wide)
    const attacker = '203.0.113.66'
    for (let i = 0; i < 10; i++)
      expect((await signInFrom(wide, attacker, user.email, `wrong-${i}`)).status).toBe(401)
    const stopped = await signInFrom(wide, attacker, user.email, user.password)
    expect(stopped.status).toBe(429)
    expect(stopped.body.error.code).toBe('RATE_LIMITED')
  })
})

describe('mails an address may ask for', () => {
  let mails: TestApp
  beforeAll(async () => {
    // As it ships: 10 an hour per client address for each call that mails an account.
    mails = await buildTestApp({
      sameAs: t,
      env: { TRUST_PROXY: '127.0.0.1' },
      configure: (c) => (c.rateLimit.accountMailsPerHour = 10),
    })
  })
  afterAll(() => mails.close())

  const from = async (client: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${mails.url}/api${path}`, {
      method,
      headers: { 'x-forwarded-for': client, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    return { status: res.status, retryAfter: res.headers.get('retry-after') }
  }
  const signupBody = (email: string) => ({
    porchlightUserEmailId: email,
    porchlightUserPass: 'porch-light-42',
    porchlightUserPassVerify: 'porch-light-42',
  })
  const mailedTo = (prefix: string) =>
    mails.db
      .selectFrom('mail')
      .select('id')
      .where('toAddress', 'like', `${prefix}%`)
      .execute()
      .then((rows) => rows.length)

  it('sends 10 sign-up mails an hour from one address, then 429 with Retry-After; another address still signs up', async () => {
    const prefix = `signup-${Date.now()}-`
    const answers = []
    for (let i = 0; i < 15; i++)
      answers.push(
        await from(
          '203.0.113.80',
          'POST',
          '/signing/savePorchlightUser',
          signupBody(`${prefix}${i}@example.com`),
        ),
      )
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(201), ...Array(5).fill(429)])
    expect(Number(answers[14]?.retryAfter)).toBeGreaterThan(0)
    expect(await mailedTo(prefix)).toBe(10)
    expect(
      (
        await from(
          '203.0.113.81',
          'POST',
          '/signing/savePorchlightUser',
          signupBody(`${prefix}x@example.com`),
        )
      ).status,
    ).toBe(201)
  })

  it('sends 10 code resends and 10 password resets an hour from one address, whichever accounts it names', async () => {
    const resends = []
    for (let i = 0; i < 12; i++)
      resends.push(
        (await from('203.0.113.82', 'GET', `/signing/resendVerificationCode/${1_000_000 + i}`)).status,
      )
    expect(resends).toEqual([...Array(10).fill(200), 429, 429])
    const resets = []
    for (let i = 0; i < 12; i++)
      resets.push(
        (
          await from('203.0.113.82', 'POST', '/signing/resetUserPassword', {
            porchlightUserEmailId: `r${i}@example.com`,
          })
        ).status,
      )
    expect(resets).toEqual([...Array(10).fill(200), 429, 429])
  })

  it('sends one account at most 5 codes an hour, from however many addresses', async () => {
    const email = `resend-wide-${Date.now()}@example.com`
    const signup = await from('203.0.113.83', 'POST', '/signing/savePorchlightUser', signupBody(email))
    expect(signup.status).toBe(201)
    const user = await mails.db
      .selectFrom('porchlightUser')
      .select('id')
      .where('porchlightUserEmailId', '=', email)
      .executeTakeFirstOrThrow()
    const statuses = []
    for (let i = 0; i < 15; i++)
      statuses.push(
        (await from(`198.51.104.${i + 1}`, 'GET', `/signing/resendVerificationCode/${user.id}`)).status,
      )
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(10).fill(429)])
    // The sign-up's code and five more.
    expect(await mailedTo(email)).toBe(6)
  })
})

describe('resending a verification code', () => {
  it('answers the same for an unknown id, a waiting account and a validated one, and limits each alike', async () => {
    const waiting = await t.call('POST', '/signing/savePorchlightUser', {
      body: {
        porchlightUserEmailId: `waiting-${Date.now()}@example.com`,
        porchlightUserPass: 'porch-light-42',
        porchlightUserPassVerify: 'porch-light-42',
      },
    })
    const validated = await makeValidatedUser(t)
    const ids = [waiting.body.data.id, validated.userId, 2_000_000_000]
    for (const id of ids) {
      const answers = []
      for (let i = 0; i < 6; i++) answers.push(await t.call('GET', `/signing/resendVerificationCode/${id}`))
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429])
      expect(answers[0]?.body).toEqual({ data: { sent: true } })
      expect(answers[5]?.body.error.code).toBe('RATE_LIMITED')
    }
  })
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

describe('per-account limits while Redis is away', () => {
  let redis: OwnRedis
  let away: TestApp
  beforeAll(async () => {
    redis = await startOwnRedis()
    away = await buildTestApp({ sameAs: t, env: { REDIS_URL: redis.url, TRUST_PROXY: '127.0.0.1' } })
  })
  afterAll(async () => {
    await away.close()
    await redis.stop()
  })

  it('still pauses an account after 10 wrong guesses from 60 addresses, and a Redis restart does not reopen it', async () => {
    const user = await makeValidatedUser(away)
    await redis.stop()
    const answers = await guessesFromEverywhere(away, user.email, 60, '198.51.105')
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(401))
    expect(answers.slice(10).map((a) => a.status)).toEqual(Array(50).fill(429))
    expect(Number(answers[59]?.retryAfter)).toBeGreaterThan(0)

    // Redis back, empty: the counts this process kept still hold.
    await redis.start()
    await expect.poll(() => away.app.deps.redis.status, { timeout: 10_000 }).toBe('ready')
    expect((await signInFrom(away, '192.0.2.12', user.email, user.password)).status).toBe(429)
    expect((await guessesFromEverywhere(away, user.email, 5, '198.51.106')).map((a) => a.status)).toEqual(
      Array(5).fill(429),
    )
  }, 60_000)
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
