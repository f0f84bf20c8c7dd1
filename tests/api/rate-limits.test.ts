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

  it('stops an account after 100 failed sign-ins in an hour, even with the right password', async () => {
    const user = await makeValidatedUser(wide)
    const call = (pass: string) =>
      wide.call('POST', '/signing/authenticate', {
        body: { porchlightUserEmailId: user.email, porchlightUserPass: pass },
      })
    for (let i = 0; i < 100; i++) expect((await call(`wrong-${i}`)).status).toBe(401)
    const res = await call(user.password)
    expect(res.status).toBe(429)
    expect(res.body.error.code).toBe('RATE_LIMITED')
  }, 60_000)
})
