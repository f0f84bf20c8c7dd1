import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PlanLimitError,
  ValidationError,
} from '@porchlight/server/src/errors.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makeAgent } from '../support/factories.ts'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp({
    extend: (app) => {
      app.post(
        '/api/test/echo',
        { schema: { body: z.object({ reAgentFirstName: z.string().min(1), zip: z.number().min(10000) }) } },
        async (req) => ({ data: req.body }),
      )
      app.get('/api/test/plan-limit', async () => {
        throw new PlanLimitError(
          'PLAN_LIMIT_TEAMS',
          'You have reached the limit of creating teams as per your plan.',
        )
      })
      app.get('/api/test/forbidden', async () => {
        throw new ForbiddenError()
      })
      app.get('/api/test/missing', async () => {
        throw new NotFoundError()
      })
      app.get('/api/test/conflict', async () => {
        throw new ConflictError('ALREADY_CLAIMED', "Couldn't claim the Open House Opportunity!")
      })
      app.get('/api/test/rule', async () => {
        throw new ValidationError([
          { field: 'reAgentResidenceZipCode', message: 'Zip must be 10000 to 99999' },
        ])
      })
      app.get('/api/test/crash', async () => {
        throw new Error('database password is hunter2 at /srv/app.ts:12')
      })
      app.get('/api/test/me', { preHandler: app.requireUser }, async (req) => ({
        data: { userId: req.user?.id },
      }))
    },
  })
})
afterAll(() => t.close())

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}${path}`, { headers })

describe('error responses', () => {
  it('answers 400 BAD_REQUEST for malformed JSON', async () => {
    const res = await fetch(`${t.url}/api/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"reAgentFirstName": ',
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: { code: 'BAD_REQUEST', message: expect.any(String) } })
  })

  it('answers 400 BAD_REQUEST for a bad path parameter', async () => {
    const res = await get('/api/pricingplanmgmt/getAllOfferedPricingPlans/not-a-number')
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error.code).toBe('BAD_REQUEST')
    expect(body.error.message).toContain('reAgentId')
  })

  it('answers 422 VALIDATION listing every failing field', async () => {
    const res = await fetch(`${t.url}/api/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reAgentFirstName: '', zip: 99 }),
    })
    expect(res.status).toBe(422)
    const body = await res.json()
    expect(body.error.code).toBe('VALIDATION')
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['reAgentFirstName', 'zip'])
  })

  it('answers 422 with the fields a business rule names', async () => {
    const res = await get('/api/test/rule')
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      error: { code: 'VALIDATION', message: expect.any(String) },
      errors: [{ field: 'reAgentResidenceZipCode', message: 'Zip must be 10000 to 99999' }],
    })
  })

  it('answers 402 with the plan-limit code and text', async () => {
    const res = await get('/api/test/plan-limit')
    expect(res.status).toBe(402)
    expect((await res.json()).error.code).toBe('PLAN_LIMIT_TEAMS')
  })

  it('answers 403 SESSION_EXPIRED without a token, with an unknown one, and after the session expired', async () => {
    expect((await get('/api/test/me')).status).toBe(403)
    const unknown = await get('/api/test/me', { authorization: 'Bearer abcdefghijklmnopqrstuvwxyz234567' })
    expect(await unknown.json()).toEqual({
      error: { code: 'SESSION_EXPIRED', message: 'Your Session Expired. Please sign in again!' },
    })

    const { token, user } = await makeAgent(t.db)
    const ok = await get('/api/test/me', { authorization: `Bearer ${token}` })
    expect(await ok.json()).toEqual({ data: { userId: user.id } })

    await t.db
      .updateTable('session')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('userId', '=', user.id)
      .execute()
    const expired = await get('/api/test/me', { authorization: `Bearer ${token}` })
    expect(expired.status).toBe(403)
    expect((await expired.json()).error.code).toBe('SESSION_EXPIRED')
  })

  it('answers 403 FORBIDDEN, 404 NOT_FOUND and 409 with their codes', async () => {
    const forbidden = await get('/api/test/forbidden')
    expect([forbidden.status, (await forbidden.json()).error.code]).toEqual([403, 'FORBIDDEN'])
    const missing = await get('/api/test/missing')
    expect([missing.status, (await missing.json()).error.code]).toEqual([404, 'NOT_FOUND'])
    const conflict = await get('/api/test/conflict')
    expect(conflict.status).toBe(409)
    expect(await conflict.json()).toEqual({
      error: { code: 'ALREADY_CLAIMED', message: "Couldn't claim the Open House Opportunity!" },
    })
  })

  it('answers 404 NOT_FOUND for an unknown API route', async () => {
    const res = await get('/api/no/such/route')
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe('NOT_FOUND')
  })

  it('answers 500 INTERNAL without leaking the cause', async () => {
    const res = await get('/api/test/crash')
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong' } })
    expect(text).not.toContain('hunter2')
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers 429 RATE_LIMITED once the per-IP limit is passed', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_MAX: '3' } })
    try {
      const statuses: number[] = []
      let last: Response | undefined
      for (let i = 0; i < 5; i++) {
        last = await fetch(`${limited.url}/api/health`)
        statuses.push(last.status)
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      expect(await last?.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } })
    } finally {
      await limited.close()
    }
  })
})
