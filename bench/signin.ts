// `pnpm bench signin`: sustained guest sign-ins through the whole app beside a bare Fastify + pg server
// writing the same rows in one transaction (and, as a floor, a single insert) in the same run, and a
// fixed 300/s run for latency. The fan-out of a sign-in to guest sockets is `pnpm bench fanout`.
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import Fastify from 'fastify'
import { bareSignIn } from './bare-signin.ts'
import { barePool, type guestVisitor, load, loadWarm, report, startBenchApp } from './support.ts'

export async function run() {
  const a = await startBenchApp()
  const pool = barePool(a.databaseUrl, 20)
  await pool.query('create table if not exists bench_signin (id bigserial primary key, body jsonb not null)')
  const bare = Fastify()
  // The floor: one insert of the body, nothing read, nothing checked.
  bare.post('/insert', async (req) => ({
    data: (await pool.query('insert into bench_signin (body) values ($1) returning id', [req.body])).rows[0],
  }))
  bare.post('/signin', (req) => bareSignIn(pool, req.body as ReturnType<typeof guestVisitor>))
  await bare.listen({ port: 0, host: '127.0.0.1' })
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`
  try {
    const t = {
      call: apiCaller(a.url),
      db: a.db,
    } as never
    const listing = await makePlannedAgent(a.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    const request = (base: string, p: string) => ({ url: `${base}${p}`, guestSignIn: oh.id })

    // Every row starts from a vacuumed database (before its warm-up, where it has one), as PostgreSQL's
    // autovacuum keeps one in production. This machine's server runs with autovacuum off, so each row
    // inherited the dead rows of the rows before it (11,000 folded statistics deltas before the steady
    // runs), and a later row was measured against a database in a worse state than an earlier one. With 48,000 dead deltas PostgreSQL spent 2.8–2.9 ms
    // of CPU on a sign-in's rows (pgbench, 8 clients), and 2.2 ms right after a vacuum of that database.
    const vacuumed = async <T>(run: () => Promise<T>) => {
      await pool.query('vacuum')
      return run()
    }
    const floor = await vacuumed(() => loadWarm(request(bareUrl, '/insert')))
    const baseline = await vacuumed(() => loadWarm(request(bareUrl, '/signin')))
    const sustained = await vacuumed(() => loadWarm(request(a.url, '/api/public/saveProspect')))
    // A steady 300/s, beside the bare transaction at the same rate: evenly spaced, from when each was due;
    // 10 s counted after 2 s at the same rate that are not (the generator's process and connections are
    // new: on both sides, the first half second's requests waited up to 260 ms, the rest under 120 ms).
    const steady300 = (base: string, p: string) =>
      vacuumed(() => load({ ...request(base, p), steadyRate: 300, connections: 50, warmup: 2, duration: 10 }))
    const bareAt300 = await steady300(bareUrl, '/signin')
    const at300 = await steady300(a.url, '/api/public/saveProspect')
    const stored = await a.db
      .selectFrom('openHouseAttendee')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    report('signin', 'Guest sign-in (5 s each)', {
      'bare fastify + pg, one insert (floor)': floor,
      'bare fastify + pg, the same rows in one transaction': baseline,
      'porchlight, all out': sustained,
      'bare, steady 300/s': bareAt300,
      'porchlight, steady 300/s': at300,
      ratio: {
        requestsPerSec: (sustained.requestsPerSec / baseline.requestsPerSec).toFixed(2),
        // Inverted, so that like requestsPerSec more is better: bare's CPU per request over ours.
        serverCpuUsPerRequest: (baseline.serverCpuUsPerRequest / sustained.serverCpuUsPerRequest).toFixed(2),
      },
    })
    const answered = sustained.requestsPerSec > 0 ? Number(stored.n) : 0
    console.log(
      `attendees stored: ${answered} (every 2xx answer is a stored attendee; non-2xx above counts any loss)`,
    )
  } finally {
    await bare.close()
    await pool.end()
    await a.close()
  }
}
