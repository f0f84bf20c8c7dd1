// Answers are written by serializers compiled from the routes' zod schemas (http/serializer.ts). What
// the contract does not name never leaves, at any depth; a handler that breaks its contract answers the
// contract's 500, not a half-written body or a stack trace.
import { registerErrorHandler } from '@porchlight/server/src/http/error-handler.ts'
import { serializerCompiler } from '@porchlight/server/src/http/serializer.ts'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'

const Visitor = z.object({
  id: z.number().int(),
  firstName: z.string(),
  phone: z.string().nullable(),
  signedInAt: z.string(),
  seenAt: z.date().optional(),
  answers: z.array(z.object({ question: z.string(), answer: z.string().nullable() })),
  by: z.union([z.object({ agentName: z.string() }), z.object({ kiosk: z.boolean() })]),
  extra: z.record(z.string(), z.number()),
})
const Answer = z.object({ data: z.array(Visitor) })

const app = Fastify({ logger: false })
let rows: unknown[] = []

beforeAll(async () => {
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandler(app)
  app.get('/visitors', { schema: { response: { 200: Answer } } }, async () => ({ data: rows }))
  await app.ready()
})
afterAll(() => app.close())

const visitor = {
  id: 7,
  firstName: 'Zoë',
  phone: null,
  signedInAt: '2027-03-06T13:05:00.000Z',
  seenAt: new Date('2027-03-06T13:06:00.000Z'),
  answers: [{ question: 'Pre-approved?', answer: 'Yes', internalScore: 9 }],
  by: { agentName: 'Avery Stone', agentPasswordHash: 'x' },
  extra: { rooms: 4 },
  // Read by the query, not in the contract:
  prospectEmailId: 'zoe@example.com',
  guestTokenHash: 'abc',
}

describe('compiled response serializers', () => {
  it('write exactly what the contract names, at every depth', async () => {
    rows = [visitor, { ...visitor, id: 8, by: { kiosk: true, deviceSecret: 'k' }, seenAt: undefined }]
    const res = await app.inject({ method: 'GET', url: '/visitors' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toEqual({
      data: [
        {
          id: 7,
          firstName: 'Zoë',
          phone: null,
          signedInAt: '2027-03-06T13:05:00.000Z',
          seenAt: '2027-03-06T13:06:00.000Z',
          answers: [{ question: 'Pre-approved?', answer: 'Yes' }],
          by: { agentName: 'Avery Stone' },
          extra: { rooms: 4 },
        },
        {
          id: 8,
          firstName: 'Zoë',
          phone: null,
          signedInAt: '2027-03-06T13:05:00.000Z',
          answers: [{ question: 'Pre-approved?', answer: 'Yes' }],
          by: { kiosk: true },
          extra: { rooms: 4 },
        },
      ],
    })
    for (const secret of [
      'zoe@example.com',
      'guestTokenHash',
      'internalScore',
      'agentPasswordHash',
      'deviceSecret',
    ])
      expect(res.body).not.toContain(secret)
  })

  it("answers the contract's 500 when a handler leaves out what the contract requires", async () => {
    const { firstName: _, ...withoutName } = visitor
    rows = [withoutName]
    const res = await app.inject({ method: 'GET', url: '/visitors' })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong' } })
    expect(res.body).not.toContain('zoe@example.com')
  })

  it("answers the contract's 500 when a value is not of the contract's type", async () => {
    rows = [{ ...visitor, id: 'not a number' }]
    const res = await app.inject({ method: 'GET', url: '/visitors' })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong' } })
  })
})
