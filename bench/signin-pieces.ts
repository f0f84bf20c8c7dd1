// `BENCH_SIGNIN_ONLY=pieces BENCH_API_CPU_AGAINST=<another checkout> pnpm bench signin`: what decision
// 066 changed in a guest sign-in, timed piece by piece in one process, this checkout's code and the
// other's taking turns (no HTTP, no PostgreSQL: on a busy machine the whole request's CPU varies by far
// more than these pieces). µs per call, the median of rounds of many calls:
//   - the sign-in's values built and its statement's parameters read (the prospects service and repo,
//     `compiled-once.ts`), through Kysely onto a driver that answers one row without a database;
//   - the security headers: helmet's middleware run per request (the other's compose/app.ts) against
//     the headers worked out once (http/security-headers.ts), onto a new response each;
//   - the request's trace context: entered in onRequest with an AsyncResource and again before
//     validation (the other's http/observe.ts), against entered once.
import { AsyncResource } from 'node:async_hooks'
import http from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'
import { headersSetOnce, helmetPolicy } from '@porchlight/server/src/http/security-headers.ts'
import { trace } from '@porchlight/server/src/lib/trace.ts'
import { GuestSignInBody } from '@porchlight/shared'
import {
  CamelCasePlugin,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely'
import { guestVisitor, report } from './support.ts'

const AGAINST = process.env.BENCH_API_CPU_AGAINST
// The server's helmet (a dependency of the server's, not the bench's).
const helmet = createRequire(path.resolve(import.meta.dirname, '../server/package.json'))('helmet') as (
  options: ReturnType<typeof helmetPolicy>,
) => Parameters<typeof headersSetOnce>[0]
const ROUNDS = 9
const CALLS = 20_000

/** A driver that answers every statement with the sign-in's one row, at once. */
class AnsweringDriver implements Driver {
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: async () =>
        ({
          rows: [
            {
              id: 1,
              prospect_id: 2,
              created_date: new Date(),
              created: true,
              listing_re_agent_id: 3,
              hosting_re_agent_id: null,
            },
          ],
        }) as never,
      streamQuery: () => {
        throw new Error('no streams')
      },
    }
  }
  async beginTransaction() {}
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {}
}

/** The guest sign-in through a checkout's prospects service and repo, onto the answering driver. */
async function signInOf(root: string) {
  const src = path.join(root, 'server/src')
  const { createProspectRepo } = await import(path.join(src, 'modules/prospects/repo.ts'))
  const { createProspectService } = await import(path.join(src, 'modules/prospects/service.ts'))
  const { WriteWatchPlugin } = await import(path.join(src, 'db/write-watch.ts'))
  const db = new Kysely<never>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new AnsweringDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    plugins: [new CamelCasePlugin(), new WriteWatchPlugin()],
  })
  const service = createProspectService({
    db,
    repo: createProspectRepo(db),
    access: { newGuestToken: () => ({ token: 't', tokenHash: 'h' }) },
    attendees: { announceCommitted: async () => {} },
  } as never)
  const bodies = Array.from({ length: 64 }, (_, i) => GuestSignInBody.parse(guestVisitor(i + 1)))
  let i = 0
  return async () => {
    await service.guestSignIn(bodies[i++ & 63], { userAgent: 'bench' })
  }
}

const POLICY = helmetPolicy(undefined)

function headersPerRequest() {
  const middleware = helmet(POLICY)
  return () =>
    new Promise<void>((resolve) => {
      const req = new http.IncomingMessage(null as never)
      const res = new http.ServerResponse(req)
      res.setHeader('permissions-policy', 'camera=()')
      middleware(req, res, () => resolve())
    })
}

function headersOnce() {
  const set = headersSetOnce(helmet(POLICY))
  return async () => {
    const req = new http.IncomingMessage(null as never)
    const res = new http.ServerResponse(req)
    res.setHeader('permissions-policy', 'camera=()')
    set(res)
  }
}

/** onRequest, then (after the body) preValidation, as a request passes them. */
function traceWithResource() {
  const resourceOf = new WeakMap<object, AsyncResource>()
  return () =>
    new Promise<void>((resolve) => {
      const req = {}
      trace.run({ requestId: 'r' }, () => {
        const resource = new AsyncResource('porchlight-request')
        resourceOf.set(req, resource)
        resource.runInAsyncScope(() => {
          setImmediate(() => {
            const r = resourceOf.get(req)
            if (r) r.runInAsyncScope(resolve)
            else resolve()
          })
        })
      })
    })
}

function traceOnce() {
  return () =>
    new Promise<void>((resolve) => {
      trace.run({ requestId: 'r' }, () => {
        setImmediate(resolve)
      })
    })
}

/** µs per call of each of `sides`, taking turns, the median of ROUNDS rounds of CALLS calls. */
async function taking(sides: Record<string, () => Promise<void>>) {
  const times = new Map<string, number[]>(Object.keys(sides).map((k) => [k, []]))
  for (const run of Object.values(sides)) for (let i = 0; i < CALLS; i++) await run()
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(sides)) {
      const before = process.cpuUsage()
      for (let i = 0; i < CALLS; i++) await run()
      const used = process.cpuUsage(before)
      times.get(name)?.push((used.user + used.system) / CALLS)
    }
  }
  return Object.fromEntries(
    [...times].map(([name, t]) => {
      const sorted = [...t].sort((x, y) => x - y)
      return [name, { usPerCall: Number(sorted[Math.floor(sorted.length / 2)]?.toFixed(2)) }]
    }),
  )
}

export async function pieces() {
  const here = path.resolve(import.meta.dirname, '..')
  const figures = {
    ...(await taking({
      'sign-in values and parameters, this checkout': await signInOf(here),
      ...(AGAINST ? { [`sign-in values and parameters, ${AGAINST}`]: await signInOf(AGAINST) } : {}),
    })),
    ...(await taking({
      'security headers worked out once': headersOnce(),
      "security headers, helmet's middleware per request": headersPerRequest(),
    })),
    ...(await taking({
      'trace context entered once': traceOnce(),
      'trace context with an AsyncResource, entered twice': traceWithResource(),
    })),
  }
  report(
    'signin-pieces',
    "A guest sign-in's pieces changed by decision 066, CPU µs per call",
    figures as never,
  )
}
