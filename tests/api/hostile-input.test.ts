// Hostile input never makes a 5xx: every API route (from app.routeTable) is driven by fast-check with
// generated and adversarial paths, queries and bodies — built from the route's own OpenAPI schema, so
// most requests get past the parser into validation, the policy and the database — as the owner of real
// resources and anonymously. A failure is shrunk to the smallest request that still answers 5xx.

import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { makePlannedAgent, scheduleFields } from '../support/factories.ts'
import { scheduleOpenHouse } from '../support/open-houses.ts'

/** Runs per route and caller: enough to hit each adversarial value, small enough for a fast suite. */
const RUNS = 60
const SEED = 20261123

let t: TestApp
let token: string
let propertyId: number
/** Ids of resources the caller owns, so a generated id is sometimes a real one. */
let ownIds: number[]

beforeAll(async () => {
  t = await buildTestApp({
    configure: (config) => {
      config.rateLimit.max = 1_000_000
      config.rateLimit.guestPerMinute = 1_000_000
      config.rateLimit.signInPerMinute = 1_000_000
    },
  })
  const owner = await makePlannedAgent(t.db)
  token = owner.token
  const oh = await scheduleOpenHouse(t, owner)
  ownIds = [owner.agent.id, oh.id, oh.rePropertyId]
  propertyId = oh.rePropertyId
})
afterAll(() => t?.close())

// ---------------------------------------------------------------------------------------------------
// Adversarial values

const nasty = fc.constantFrom(
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '2027-02-30',
  '2026-13-01',
  '0000-00-00',
  '9999-12-31T23:59:59.999Z',
  '99:99',
  '1e309',
  'NaN',
  '-1',
  '0',
  '9007199254740993',
  '{"a":1}',
  "'; drop table re_agent; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '\ud800',
  '🏠'.repeat(300),
  'x'.repeat(10_000),
  'true',
  'null',
)
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, Number.MAX_VALUE, -Number.MAX_VALUE, 1e-300),
)
const scalar = fc.oneof(nasty, fc.string({ maxLength: 30 }), number, fc.boolean(), fc.constant(null))
const value = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }) },
)

type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  enum?: unknown[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  format?: string
}

/** A value for a schema: mostly one that fits (so validation passes and deeper code runs), else hostile. */
function fitting(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 3) return value
  const variant = schema.anyOf ?? schema.oneOf
  if (variant?.length) return fc.oneof(...variant.map((s) => fitting(s, depth + 1)))
  if (schema.enum?.length) return fc.oneof(fc.constantFrom(...schema.enum), value)
  const type = [schema.type].flat()[0]
  if (type === 'object' && schema.properties) {
    const fields = Object.fromEntries(
      Object.entries(schema.properties).map(([name, s]) => [name, fitting(s, depth + 1)]),
    )
    return fc.record(fields, { requiredKeys: [] })
  }
  if (type === 'array') return fc.oneof(fc.array(fitting(schema.items, depth + 1), { maxLength: 3 }), value)
  if (type === 'string' && schema.format === 'date') return fc.oneof(nasty, fc.constant('2027-06-01'))
  if (type === 'integer' || type === 'number') return fc.oneof(number, fc.constantFrom(...ownIds), nasty)
  if (type === 'boolean') return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false'), value)
  return fc.oneof(scalar, fc.string({ maxLength: 40 }))
}

/** A body: fitting the schema, or the shapes parsers and refinements trip on. */
function bodyFor(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fitting(schema).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom('null', '[]', '""', '0', 'true', '{', '{"__proto__":{"x":1}}') },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  )
}

/** A path parameter: one of the caller's ids, a number, or what a number parser trips on. */
const segment = () =>
  fc.oneof(
    fc.constantFrom(...ownIds.map(String)),
    fc.constantFrom('0', '-1', '1.5', 'abc', '99999999999999999999', '%00', '%2e%2e', 'NaN'),
    fc.nat().map(String),
  )

// ---------------------------------------------------------------------------------------------------

interface Route {
  method: string
  url: string
  body?: JsonSchema
  query?: Record<string, JsonSchema>
}

async function routes(): Promise<Route[]> {
  const doc = t.app.swagger() as {
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
          parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>
        }
      >
    >
  }
  return t.app.routeTable
    .filter((r) => !r.url.startsWith('/api/admin/'))
    .map((r) => {
      const openApiPath = r.url.replace(/:(\w+)/g, '{$1}')
      const op = doc.paths[openApiPath]?.[r.method.toLowerCase()]
      const query = Object.fromEntries(
        (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}]),
      )
      return {
        method: r.method,
        url: r.url,
        body: op?.requestBody?.content?.['application/json']?.schema,
        query,
      }
    })
}

function requestFor(route: Route) {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string)
  return fc.record({
    path: fc
      .tuple(...names.map(() => segment()))
      .map((values) =>
        names.reduce((url, name, i) => url.replace(`:${name}`, values[i] as string), route.url),
      ),
    query: fc
      .record(
        Object.fromEntries(
          Object.entries(route.query ?? {}).map(([name, s]) => [
            name,
            fc.oneof(fitting(s), nasty).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
          ]),
        ),
        { requiredKeys: [] },
      )
      .map((q) => new URLSearchParams(q as Record<string, string>).toString()),
    body: route.method === 'GET' || route.method === 'DELETE' ? fc.constant(undefined) : bodyFor(route.body),
    signedIn: fc.boolean(),
  })
}

describe('hostile input', () => {
  it('never answers 5xx, on any route, to any path, query or body', async () => {
    const all = await routes()
    expect(all.length).toBeGreaterThan(50)
    const failures: string[] = []
    for (const route of all) {
      try {
        await fc.assert(
          fc.asyncProperty(requestFor(route), async (req) => {
            const headers: Record<string, string> = {}
            if (req.body !== undefined) headers['content-type'] = 'application/json'
            if (req.signedIn) headers.authorization = `Bearer ${token}`
            const res = await fetch(`${t.url}${req.path}${req.query ? `?${req.query}` : ''}`, {
              method: route.method,
              headers,
              body: req.body,
            })
            const text = await res.text()
            if (res.status >= 500) throw new Error(`${res.status} ${text.slice(0, 200)}`)
            // Every error is the contract's shape and tells nothing of the inside.
            if (res.status >= 400) {
              const body = JSON.parse(text)
              if (typeof body?.error?.code !== 'string' || typeof body.error.message !== 'string')
                throw new Error(`${res.status} without the error shape: ${text.slice(0, 200)}`)
              if (/at \w+ \(|node_modules|\.ts:\d+|SQLSTATE|relation "/.test(text))
                throw new Error(`${res.status} leaks internals: ${text.slice(0, 200)}`)
            }
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: false },
        )
      } catch (err) {
        // fast-check's report: the shrunk counterexample, then (as the cause) what the server answered.
        const failure = err as Error
        const example = failure.message.match(/Counterexample: (.*)/)?.[1]?.slice(0, 300)
        const answer = String(failure.cause ?? failure.message.split('\n')[0]).slice(0, 300)
        failures.push(`${route.method} ${route.url}: ${answer} — for ${example}`)
      }
    }
    expect(failures).toEqual([])
  }, 240_000)

  it('refuses impossible calendar dates, a JSON null body and a reference to nothing with 4xx', async () => {
    const schedule = (body: unknown) => t.call('POST', '/openhousemgmt/saveOpenHouse', { token, body })
    const fieldsOf = (body: { errors?: Array<{ field: string; message: string }> }) =>
      Object.fromEntries((body.errors ?? []).map((e) => [e.field, e.message]))

    // Date.parse would roll 2027-02-30 over to March 2.
    const feb30 = await schedule(scheduleFields(propertyId, { scheduledDate: '2027-02-30' }))
    expect(feb30.status).toBe(422)
    expect(fieldsOf(feb30.body)).toEqual({ scheduledDate: 'Not a real date' })

    const nothing = await schedule(null)
    expect(nothing.status).toBe(422)
    expect(nothing.body.error.code).toBe('VALIDATION')

    // A property that does not exist is answered like one that is not the caller's: nothing leaks.
    const missing = await schedule(scheduleFields(2_000_000_000))
    expect(missing.status).toBe(403)
    expect(JSON.stringify(missing.body)).not.toMatch(/foreign|constraint|re_property/i)
  })

  it('answers a request line too long for the HTTP parser in the contract shape', async () => {
    const res = await fetch(`${t.url}/api/health?q=${'x'.repeat(20_000)}`)
    expect(res.status).toBe(431)
    expect(await res.json()).toEqual({
      error: { code: 'HEADERS_TOO_LARGE', message: 'The address or headers are too long' },
    })
  })
})
