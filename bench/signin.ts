// `pnpm bench signin` (issue 38): the guest sign-in without and with consent to email, each beside, in
// the same run and taking turns with it:
//   - the baseline: a bare Fastify + pg transaction of prepared statements writing the same rows into
//     plain tables (copies of ours without triggers or foreign keys; bare-signin.ts);
//   - the physical limit: the same rows as one prepared statement, one round trip (reported, not a target);
//   - the same bare transaction into our tables: what our schema (its triggers, its keys) costs.
// The worker runs in a process of its own and delivers the thank-yous to an SMTP sink in the window, and
// 100,000 follow-ups wait in the outbox, due in two days, as after a few busy weekends. Each row prints
// requests/s and latency beside the API process's Node CPU, the worker's and PostgreSQL's per sign-in.
// Last, issue 38's mail backlog: what is left to send after 20 s of consented sign-ins at full speed,
// under `pnpm start` itself (server/src/bin/start.ts with DATABASE_URL: its processes, its priorities).
import { spawn } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import path from 'node:path'
import readline from 'node:readline'
import { SERVER_NODE_FLAGS } from '@porchlight/server/src/bin/node-flags.ts'
import { apiCaller } from '@porchlight/tests/support/api.ts'
import { makePlannedAgent } from '@porchlight/tests/support/factories.ts'
import { scheduleOpenHouse } from '@porchlight/tests/support/open-houses.ts'
import Fastify from 'fastify'
import { bareSignIn, bareSignInOneStatement, OUR_TABLES, plainTables } from './bare-signin.ts'
import { apiCpu } from './signin-api-cpu.ts'
import { pieces } from './signin-pieces.ts'
import { processCpuUs, startCommand } from './start-command.ts'
import {
  BENCH_SECRETS_KEY,
  barePool,
  type guestVisitor,
  load,
  pendingFollowUps,
  REDIS_URL,
  report,
  startBenchApp,
  withPostgresCpu,
} from './support.ts'

const PENDING_FOLLOW_UPS = 100_000
/** Runs of each row, taking turns; the median run is reported. */
const ROUNDS = 3
/**
 * `BENCH_SIGNIN_ONLY=backlog`: only issue 38's mail backlog (about a minute, not seven), and the worker's
 * own cost per sign-in: the same burst with the worker paused, then its CPU while it catches up alone.
 */
const ONLY_BACKLOG = process.env.BENCH_SIGNIN_ONLY === 'backlog'
/**
 * `BENCH_SIGNIN_ONLY=unconsented`: only the unconsented rows beside their baselines (about three minutes):
 * no consented rows, no backlog, no steady rate.
 */
const ONLY_UNCONSENTED = process.env.BENCH_SIGNIN_ONLY === 'unconsented'
/** `BENCH_SIGNIN_ONLY=api-cpu`: only the API's own CPU per unconsented sign-in, the app alone (signin-api-cpu.ts). */
const ONLY_API_CPU = process.env.BENCH_SIGNIN_ONLY === 'api-cpu'
/** `BENCH_SIGNIN_ONLY=pieces`: only the pieces decision 066 changed, timed in one process (signin-pieces.ts). */
const ONLY_PIECES = process.env.BENCH_SIGNIN_ONLY === 'pieces'
/** Consented sign-ins the worker catches up on alone, in the backlog's second figure. */
const CATCH_UP_SIGN_INS = 3000
/** `BENCH_WORKER_CPU_PROF=<dir>`: the worker writes a V8 CPU profile there when it stops. */
const WORKER_CPU_PROF = process.env.BENCH_WORKER_CPU_PROF
/** `BENCH_SIGNIN_WORKER=<path>`: another checkout's worker (bin/worker.ts), to measure before and after. */
const WORKER_ENTRY =
  process.env.BENCH_SIGNIN_WORKER ?? path.resolve(import.meta.dirname, '../server/src/bin/worker.ts')
/** `BENCH_SIGNIN_DKIM=1`: the worker signs every mail (DKIM_* set, a 2048-bit RSA key), as production may. */
const DKIM = process.env.BENCH_SIGNIN_DKIM === '1'
/** `BENCH_SIGNIN_BACKLOG_SECONDS`: how long the backlog's burst lasts (20 s, issue 38's figure). */
const BACKLOG_SECONDS = Number(process.env.BENCH_SIGNIN_BACKLOG_SECONDS ?? 20)

/** The SMTP sink in its own process (smtp-receiver.ts): its URL and how many messages it took. */
async function smtpSink() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'smtp-receiver.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream })
  const counted = { n: 0 }
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', () => reject(new Error('the SMTP sink stopped')))
    lines.on('line', (line) => {
      if (line.startsWith('listening ')) resolve(line.slice('listening '.length))
      else counted.n++
    })
  })
  return {
    url,
    counted,
    async close() {
      child.stdin?.end()
      await new Promise((r) => child.once('exit', r))
    },
  }
}

/** The worker as production runs it (server/src/bin/worker.ts), on the bench's database and Redis prefix. */
function workerProcess(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [
      ...SERVER_NODE_FLAGS,
      ...(WORKER_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${WORKER_CPU_PROF}`] : []),
      '--import',
      'tsx',
      WORKER_ENTRY,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } },
  )
  return {
    pid: child.pid,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    },
  }
}

export async function run() {
  if (ONLY_API_CPU) return apiCpu()
  if (ONLY_PIECES) return pieces()
  const sink = await smtpSink()
  const a = await startBenchApp({ SMTP_URL: sink.url })
  const database = new URL(a.databaseUrl).pathname.slice(1)
  // The worker's settings, the start's too (its worker's), on the bench's database and Redis prefix.
  const settings = {
    DATABASE_URL: a.databaseUrl,
    REDIS_URL,
    REDIS_KEY_PREFIX: a.prefix,
    SMTP_URL: sink.url,
    SECRETS_KEY: BENCH_SECRETS_KEY,
    LOG_LEVEL: 'silent',
    ...(DKIM
      ? {
          DKIM_DOMAIN: 'porchlight.example',
          DKIM_SELECTOR: 'bench',
          DKIM_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
            .privateKey.export({ type: 'pkcs8', format: 'pem' })
            .toString(),
        }
      : {}),
  }
  const worker = workerProcess({ ...settings, PORT: '0' })
  const pool = barePool(a.databaseUrl, 20)
  const plain = await plainTables(pool)
  const bare = Fastify()
  type Body = ReturnType<typeof guestVisitor>
  bare.post('/plain', (req) => bareSignIn(pool, req.body as Body, plain, 'plain'))
  bare.post('/plain-one', (req) => bareSignInOneStatement(pool, req.body as Body, plain, 'plain'))
  bare.post('/ours', (req) => bareSignIn(pool, req.body as Body, OUR_TABLES, 'ours'))
  await bare.listen({ port: 0, host: '127.0.0.1' })
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`
  try {
    const t = { call: apiCaller(a.url), db: a.db } as never
    const listing = await makePlannedAgent(a.db)
    const oh = await scheduleOpenHouse(t, listing, { publishLevel: 'Hosting Myself' })
    await pendingFollowUps(pool, oh.id, PENDING_FOLLOW_UPS)

    // Mail not yet out: thank-yous queued or being sent, and (decision 053) consenting visits whose
    // welcome the worker has not yet written (their thank-you is not even queued). Older code has no
    // such table.
    const welcomesKept = (await pool.query("select to_regclass('guest_welcome') is not null as kept")).rows[0]
      .kept
    const backlogSql = `select (select count(*)::int from mail where status in ('queued', 'sending'))${
      welcomesKept ? ' + (select count(*)::int from guest_welcome)' : ''
    } as n`
    const backlog = async (): Promise<number> => (await pool.query(backlogSql)).rows[0].n
    /** Waits (up to a minute) until the worker has sent every thank-you owed so far; what is left. */
    const drained = async () => {
      for (const until = Date.now() + 60_000; Date.now() < until; ) {
        if ((await backlog()) === 0) return 0
        await new Promise((r) => setTimeout(r, 250))
      }
      return backlog()
    }
    /**
     * One run of a row: warm, then counted, with the worker's and PostgreSQL's CPU over the counted part.
     * Each starts once the worker has sent what the run before queued, so no row pays for another's mail.
     */
    const measure = async (base: string, p: string, emailConsent: boolean, warmSeconds: number) => {
      await drained()
      // This machine's PostgreSQL runs without autovacuum: each run starts from a vacuumed database, as
      // autovacuum keeps one in production, not from the dead rows of the runs before it.
      await pool.query('vacuum')
      const opts = { url: `${base}${p}`, guestSignIn: oh.id, emailConsent }
      await load({ ...opts, duration: warmSeconds })
      const workerBefore = processCpuUs(worker.pid)
      const mailsBefore = sink.counted.n
      const r = await withPostgresCpu(pool, database, () => load(opts))
      const waiting = await backlog()
      return {
        ...r,
        workerCpuUsPerRequest: Math.round(
          (processCpuUs(worker.pid) - workerBefore) / Math.max(1, r.requests),
        ),
        mailsDelivered: sink.counted.n - mailsBefore,
        mailsWaitingAtEnd: waiting,
      }
    }
    type Run = Awaited<ReturnType<typeof measure>>
    /** The run of median requests/s, whole (its figures belong together). */
    const median = (runs: Run[]) =>
      [...runs].sort((x, y) => x.requestsPerSec - y.requestsPerSec)[Math.floor(runs.length / 2)] as Run
    const sides = [
      ['bare tx, plain tables (baseline)', bareUrl, '/plain'],
      ['bare one statement, plain tables (limit)', bareUrl, '/plain-one'],
      ['porchlight', a.url, '/api/public/saveProspect'],
      ['bare tx, our tables', bareUrl, '/ours'],
    ] as const
    const figures: Record<string, object> = {}
    for (const consent of ONLY_BACKLOG ? [] : ONLY_UNCONSENTED ? [false] : [false, true]) {
      const kind = consent ? 'consented' : 'unconsented'
      // ROUNDS rounds, the sides taking turns in each, so that all of them meet the machine alike.
      const runs = new Map<string, Run[]>(sides.map(([name]) => [name, []]))
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, base, p] of sides) {
          runs.get(name)?.push(await measure(base, p, consent, round === 0 ? 10 : 3))
        }
      }
      const [baseline, limit, app, ours] = sides.map(([name]) => median(runs.get(name) ?? [])) as [
        Run,
        Run,
        Run,
        Run,
      ]
      for (const [name] of sides) figures[`${kind}: ${name}`] = median(runs.get(name) ?? [])
      const ratio = (x: number, y: number) => (y > 0 ? (x / y).toFixed(2) : '—')
      const range = (name: string) => (runs.get(name) ?? []).map((r) => r.requestsPerSec).join(', ')
      figures[`${kind}: porchlight over baseline`] = {
        requestsPerSec: ratio(app.requestsPerSec, baseline.requestsPerSec),
        serverCpuUsPerRequest: ratio(baseline.serverCpuUsPerRequest, app.serverCpuUsPerRequest),
        postgresCpuUsPerRequest: ratio(
          Number(baseline.postgresCpuUsPerRequest),
          Number(app.postgresCpuUsPerRequest),
        ),
      }
      figures[`${kind}: our tables over plain (bare tx)`] = {
        requestsPerSec: ratio(ours.requestsPerSec, baseline.requestsPerSec),
      }
      figures[`${kind}: porchlight over the limit`] = {
        requestsPerSec: ratio(app.requestsPerSec, limit.requestsPerSec),
      }
      console.log(
        `${kind} requests/s per round: baseline ${range(sides[0][0])}; limit ${range(sides[1][0])}; porchlight ${range(sides[2][0])}; our tables ${range(sides[3][0])}`,
      )
    }
    if (ONLY_UNCONSENTED) {
      report(
        'signin',
        `Guest sign-in, unconsented only, median of ${ROUNDS} runs of 5 s a row, taking turns (ratios: more is better; CPU in µs per sign-in; ${PENDING_FOLLOW_UPS} follow-ups pending)`,
        figures as never,
      )
      return
    }
    // A steady 300/s, beside the bare transaction at the same rate (evenly spaced, 2 s not counted first).
    const steady = { steadyRate: 300, connections: 50, warmup: 2, duration: 10 }
    if (!ONLY_BACKLOG) {
      figures['unconsented: bare tx, plain tables, steady 300/s'] = await withPostgresCpu(
        pool,
        database,
        () => load({ url: `${bareUrl}/plain`, guestSignIn: oh.id, ...steady }),
      )
      figures['unconsented: porchlight, steady 300/s'] = await withPostgresCpu(pool, database, () =>
        load({ url: `${a.url}/api/public/saveProspect`, guestSignIn: oh.id, ...steady }),
      )
    }
    // Issue 38's mail backlog under `pnpm start` as it runs with DATABASE_URL (its processes and their
    // priorities), its worker in place of the bench's: consented sign-ins at full speed for 20 s, from a
    // load generator outside it at the bench's priority, the worker sending to the sink meanwhile; what
    // is left to send when the load stops, in sign-ins and in seconds of sign-ins at the rate they came,
    // and how long the worker then takes to send it. Warmed first by 10 s of the same load, drained.
    await drained()
    await worker.close()
    const start = await startCommand({
      ...settings,
      RATE_LIMIT_MAX: '100000000',
      SIGNIN_RATE_LIMIT_PER_MINUTE: '100000000',
      GUEST_RATE_LIMIT_PER_MINUTE: '100000000',
    })
    try {
      const signIns = { url: `${start.url}/api/public/saveProspect`, guestSignIn: oh.id, emailConsent: true }
      await load({ ...signIns, duration: 10 })
      await drained()
      await pool.query('vacuum')
      const startWorker = start.worker()
      const workerBefore = processCpuUs(startWorker)
      const apiBefore = start.apiCpuUs()
      // What waits every 5 s of the burst: level if the worker keeps up, growing if it falls behind.
      const waitingEvery5s: number[] = []
      const sampler = setInterval(() => {
        void backlog().then((n) => waitingEvery5s.push(n))
      }, 5000)
      const burst = await withPostgresCpu(pool, database, () =>
        load({ ...signIns, duration: BACKLOG_SECONDS }),
      ).finally(() => clearInterval(sampler))
      const apiUsed = start.apiCpuUs() - apiBefore
      const left = await backlog()
      // Of which not yet welcomed (no thank-you written yet): the rest are thank-yous queued or sending.
      const notWelcomed = welcomesKept
        ? (await pool.query('select count(*)::int as n from guest_welcome')).rows[0].n
        : 0
      const drainStarted = Date.now()
      const stillLeft = await drained()
      figures[`consented: mail backlog after ${BACKLOG_SECONDS} s at full speed, pnpm start`] = {
        requestsPerSec: burst.requestsPerSec,
        p50: burst.p50,
        p99: burst.p99,
        non2xx: burst.non2xx,
        errors: burst.errors,
        // The worker's CPU per sign-in over the burst and the drain after it: all the mail it owed.
        workerCpuUsPerSignIn: Math.round(
          (processCpuUs(startWorker) - workerBefore) / Math.max(1, burst.requests),
        ),
        apiCpuUsPerSignIn: Math.round(apiUsed / Math.max(1, burst.requests)),
        postgresCpuUsPerSignIn: burst.postgresCpuUsPerRequest,
        signInsWaitingForMail: left,
        ofWhichNotWelcomed: notWelcomed,
        secondsOfSignInsWaiting: Number((left / Math.max(1, burst.requestsPerSec)).toFixed(2)),
        waitingEvery5s: waitingEvery5s.join(' '),
        drainedInMs: stillLeft === 0 ? Date.now() - drainStarted : null,
      }
      // The worker's own cost: consented sign-ins made while it is paused (SIGSTOP), then its CPU and
      // time while it welcomes them and sends every thank-you with the bench otherwise idle. Less at the
      // mercy of the machine's other work than the burst above, where four processes share two cores.
      await drained()
      await pool.query('vacuum')
      process.kill(startWorker as number, 'SIGSTOP')
      await load({ ...signIns, amount: CATCH_UP_SIGN_INS })
      const owed = await backlog()
      const aloneBefore = processCpuUs(startWorker)
      const mailsAloneBefore = sink.counted.n
      const catchUpStarted = Date.now()
      process.kill(startWorker as number, 'SIGCONT')
      const caughtUp = await withPostgresCpu(pool, database, async () => {
        const left = await drained()
        return { requests: owed, left }
      })
      const catchUpMs = Date.now() - catchUpStarted
      figures['consented: the worker catching up alone'] = {
        signIns: owed,
        workerCpuUsPerSignIn: Math.round((processCpuUs(startWorker) - aloneBefore) / Math.max(1, owed)),
        postgresCpuUsPerSignIn: caughtUp.postgresCpuUsPerRequest,
        mailsPerSec: Math.round(((sink.counted.n - mailsAloneBefore) * 1000) / Math.max(1, catchUpMs)),
        notDone: caughtUp.left,
      }
      console.log(
        `consented, ${BACKLOG_SECONDS} s at full speed under pnpm start: ${burst.requestsPerSec}/s, ${left} sign-ins' mail waiting at the end (${(left / Math.max(1, burst.requestsPerSec)).toFixed(2)} s of sign-ins)`,
      )
    } finally {
      await start.close()
    }
    report(
      'signin',
      `Guest sign-in, median of ${ROUNDS} runs of 5 s a row, taking turns (ratios: more is better; CPU in µs per sign-in; ${PENDING_FOLLOW_UPS} follow-ups pending; worker in its own process)`,
      figures as never,
    )
  } finally {
    await bare.close()
    await pool.end()
    await worker.close()
    await a.close()
    await sink.close()
  }
}
