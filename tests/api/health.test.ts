import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'

let t: TestApp
let unreachable: TestApp

beforeAll(async () => {
  t = await buildTestApp()
  // Same database, but Redis pointed at a port where nothing listens.
  unreachable = await buildTestApp({ sameAs: t, env: { REDIS_URL: 'redis://127.0.0.1:1' } })
})
afterAll(async () => {
  await unreachable.close()
  await t.close()
})

describe('health and readiness', () => {
  it('reports the process up', async () => {
    const res = await fetch(`${t.url}/api/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ data: { status: 'up' } })
  })

  it('is ready when PostgreSQL and Redis answer', async () => {
    const res = await fetch(`${t.url}/api/ready`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      data: {
        postgres: 'up',
        redis: 'up',
        backgroundFailures: expect.any(Object),
        mail: { waiting: 0, oldestWaitingSeconds: null },
      },
    })
  })

  it('answers 503 naming Redis when Redis is unreachable', async () => {
    const res = await fetch(`${unreachable.url}/api/ready`)
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ error: { code: 'NOT_READY', message: 'Redis is not answering' } })
  })

  it('still answers API calls that need only PostgreSQL while Redis is away', async () => {
    const res = await fetch(`${unreachable.url}/api/pricingplanmgmt/getAllOfferedPricingPlans/0`)
    expect(res.status).toBe(200)
    expect((await res.json()).data.length).toBeGreaterThan(0)
  })

  it('shows the dev mailbox (no SMTP_URL) to the machine itself only, and is unknown to anyone else', async () => {
    const here = await fetch(`${t.url}/dev/mailbox`)
    expect(here.status).toBe(200)
    expect(await here.text()).toContain('Dev mailbox')
    for (const remoteAddress of ['203.0.113.7', '10.0.0.2', '::ffff:192.168.1.20']) {
      const away = await t.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress })
      expect(away.statusCode).toBe(404)
      expect(away.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No route for GET /dev/mailbox' } })
    }
  })

  it('sends security headers and locks CORS to the app origin', async () => {
    const res = await fetch(`${t.url}/api/health`, { headers: { origin: 'https://evil.example' } })
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('access-control-allow-origin')).not.toBe('https://evil.example')
  })

  it('tells the browser the map style the server was given, and nothing else', async () => {
    const res = await fetch(`${t.url}/api/public/appConfig`)
    expect(await res.json()).toEqual({ data: { mapStyleUrl: null } })
    const styled = await buildTestApp({
      sameAs: t,
      env: { MAP_STYLE_URL: 'https://tiles.example.com/style.json' },
    })
    try {
      const body = await (await fetch(`${styled.url}/api/public/appConfig`)).json()
      expect(body).toEqual({ data: { mapStyleUrl: 'https://tiles.example.com/style.json' } })
    } finally {
      await styled.close()
    }
  })

  it('serves the OpenAPI document generated from the schemas', async () => {
    const res = await fetch(`${t.url}/api/docs/json`)
    expect(res.status).toBe(200)
    const doc = await res.json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/health',
        '/api/ready',
        '/api/pricingplanmgmt/getAllOfferedPricingPlans/{reAgentId}',
        '/api/reagentmgmt/approveFirmMember/{reAgentId}',
        '/api/reagentmgmt/declineFirmMember/{reAgentId}',
        '/api/reteammgmt/acceptTeamInvitation/{reTeamId}',
        '/api/reteammgmt/declineTeamInvitation/{reTeamId}',
      ]),
    )
    // The contract's additions are described: the guest token in the sign-in answer and feedback bodies.
    const signIn = doc.paths['/api/public/saveProspect'].post
    expect(JSON.stringify(signIn.responses['201'])).toContain('guestToken')
    expect(JSON.stringify(doc.paths['/api/public/saveOpenHouseFeedback'].post.requestBody)).toContain(
      'guestToken',
    )
    expect(JSON.stringify(doc)).toContain('firmMembershipStatus')
    expect(JSON.stringify(doc)).toContain('invitationStatus')
  })
})
