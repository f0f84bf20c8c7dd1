// `pnpm bench signin`: sustained guest sign-ins through the whole app beside a bare Fastify + pg server
// writing the same rows in one transaction (and, as a floor, a single insert) in the same run, a fixed
// 300/s run for latency, and the fan-out of each sign-in to 1,000 guest sockets split across two API
// processes, beside the same sign-in and emit through two bare socket.io servers with the Redis adapter.
import { createHash, randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import { connectSocket, type TestSocket } from '@porchlight/tests/support/socket.ts'
import Fastify from 'fastify'
import pg from 'pg'
import { bareSocketServer } from './bare-sockets.ts'
import { guestVisitor, load, loadWarm, pct, report, startBenchApp } from './support.ts'

const SOCKETS = 1000

const urlOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`

export async function run() {
  const a = await startBenchApp()
  // The second API process starts for the fan-out only: the throughput runs compare one process with one.
  let b: Awaited<ReturnType<typeof startBenchApp>> | undefined
  const pool = new pg.Pool({ connectionString: a.databaseUrl, max: 20 })
  await pool.query('create table if not exists bench_signin (id bigserial primary key, body jsonb not null)')
  const bare = Fastify()
  // The floor: one insert of the body, nothing read, nothing checked.
  bare.post('/insert', async (req) => ({
    data: (await pool.query('insert into bench_signin (body) values ($1) returning id', [req.body])).rows[0],
  }))
  // The honest baseline: the same rows in the same tables, with their constraints and indexes, in one
  // transaction, as a sign-in writes them (the open house read, the agent's prospect, the attendee, the
  // guest's token), with no policy, validation, events or rate limit.
  const sameRows = async (body: ReturnType<typeof guestVisitor>) => {
    const client = await pool.connect()
    try {
      await client.query('begin')
      const oh = await client.query(
        `select id, listing_re_agent_id, hosting_re_agent_id, open_house_canceled_flag, published_at,
           scheduled_by_re_agent_id, ends_at from open_house where id = $1`,
        [body.openHouseId],
      )
      const owner = oh.rows[0].hosting_re_agent_id ?? oh.rows[0].listing_re_agent_id
      const prospect = await client.query(
        `insert into prospect (prospect_first_name, prospect_last_name, prospect_email_id,
           prospect_phone_number, working_with_re_agent_flag, created_by_re_agent_id, client_request_id,
           email_consent, sms_consent)
         values ($1, $2, $3, $4, false, $5, $6, false, false)
         on conflict (created_by_re_agent_id, lower(prospect_email_id)) do nothing returning id`,
        [
          body.prospectFirstName,
          body.prospectLastName,
          body.prospectEmailId,
          body.prospectPhoneNumber,
          owner,
          body.clientRequestId,
        ],
      )
      const prospectId = prospect.rows[0].id
      await client.query(
        `insert into open_house_attendee (open_house_id, prospect_id, guest_details, capture_device)
         values ($1, $2, $3, 'phone') on conflict (prospect_id, open_house_id) do nothing returning id`,
        [body.openHouseId, prospectId, JSON.stringify(body)],
      )
      const token = randomBytes(32).toString('base64url')
      await client.query(
        'insert into guest_token (token_hash, prospect_id, open_house_id) values ($1, $2, $3)',
        [createHash('sha256').update(token).digest('hex'), prospectId, body.openHouseId],
      )
      await client.query('commit')
      return { data: { id: prospectId, guestToken: token } }
    } catch (err) {
      await client.query('rollback')
      throw err
    } finally {
      client.release()
    }
  }
  bare.post('/signin', (req) => sameRows(req.body as ReturnType<typeof guestVisitor>))
  // The fan-out's baseline: the same sign-in, then one emit to the open house's room, through two bare
  // socket.io servers joined by the Redis adapter (this one and `liveB`), as the app's two processes are.
  const guestRoom = (auth: Record<string, unknown>) => [`oh:${Number(auth.openHouseId)}`]
  const liveA = bareSocketServer(bare.server, `bare-fanout-${process.pid}`, guestRoom)
  const liveB = bareSocketServer(http.createServer(), `bare-fanout-${process.pid}`, guestRoom)
  bare.post('/signin-live', async (req) => {
    const body = req.body as ReturnType<typeof guestVisitor>
    const answer = await sameRows(body)
    liveA.io
      .to(`oh:${body.openHouseId}`)
      .emit('attendee.added', { openHouseId: body.openHouseId, ...answer.data })
    return answer
  })
  await bare.listen({ port: 0, host: '127.0.0.1' })
  await new Promise<void>((resolve) => liveB.server.listen(0, '127.0.0.1', resolve))
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
    // A steady 300/s, beside the bare transaction at the same rate: evenly spaced, from when each was due.
    const steady300 = (base: string, p: string) =>
      vacuumed(() => load({ ...request(base, p), steadyRate: 300, connections: 50, duration: 10 }))
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

    /**
     * Fan-out: half the guest sockets on each of two servers; 30 sign-ins go through the first. Each
     * delay runs from the sign-in's request to a socket hearing it.
     */
    const fanOut = async (first: string, second: string, signIn: string) => {
      const sockets: TestSocket[] = []
      try {
        for (let i = 0; i < SOCKETS; i++) {
          sockets.push(await connectSocket(i % 2 === 0 ? first : second, { openHouseId: oh.id }))
        }
        const delays: number[] = []
        // Five warming sign-ins first, not counted: both sides are measured warm.
        for (let i = -5; i < 30; i++) {
          const heard = sockets.map(
            (s) =>
              new Promise<number>((resolve) => {
                s.once('attendee.added', () => resolve(performance.now()))
              }),
          )
          const sent = performance.now()
          const res = await fetch(signIn, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(guestVisitor(oh.id)),
          })
          if (res.status >= 300) throw new Error(`sign-in answered ${res.status}`)
          for (const at of await Promise.all(heard)) if (i >= 0) delays.push(at - sent)
        }
        return { p50: pct(delays, 50), p99: pct(delays, 99), samples: delays.length }
      } finally {
        for (const s of sockets) s.close()
      }
    }
    const bareFanOut = await fanOut(bareUrl, urlOf(liveB.server), `${bareUrl}/signin-live`)
    b = await startBenchApp({}, { databaseUrl: a.databaseUrl, prefix: a.prefix })
    const appFanOut = await fanOut(a.url, b.url, `${a.url}/api/public/saveProspect`)
    report('fanout', `Fan-out of a sign-in to ${SOCKETS} guest sockets on two servers (ms from request)`, {
      'bare fastify + pg + socket.io, Redis adapter': bareFanOut,
      porchlight: appFanOut,
      ratio: {
        p50: (appFanOut.p50 / bareFanOut.p50).toFixed(2),
        p99: (appFanOut.p99 / bareFanOut.p99).toFixed(2),
      },
    })
  } finally {
    await liveA.close()
    await liveB.close()
    await bare.close()
    await pool.end()
    await b?.close()
    await a.close()
  }
}
