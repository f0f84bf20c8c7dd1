import { execFileSync, spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import readline from 'node:readline'
import { SERVER_NODE_FLAGS } from '@porchlight/server/src/bin/node-flags.ts'
import { buildApp } from '@porchlight/server/src/compose/app.ts'
import { loadConfig } from '@porchlight/server/src/config.ts'
import { createPostgresDb } from '@porchlight/server/src/db/database.ts'
import { migrateToLatest } from '@porchlight/server/src/db/migrate.ts'
import { CONNECTION_OPTIONS, IDLE_CONNECTION_MS } from '@porchlight/server/src/db/postgres/settings.ts'
import { deleteKeys } from '@porchlight/tests/support/api.ts'
import type autocannon from 'autocannon'
import pg from 'pg'

export const PG_ADMIN = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
export const BENCH_SECRETS_KEY = randomBytes(32).toString('base64')
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

async function admin(query: string) {
  const client = new pg.Client({ connectionString: PG_ADMIN })
  await client.connect()
  await client.query(query).finally(() => client.end())
}

/**
 * A baseline's pool: it keeps idle connections as long as the app's pool does, and starts them with
 * the same settings (database.ts), so both sides meet the same server.
 */
export function barePool(connectionString: string, max: number) {
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    options: CONNECTION_OPTIONS,
  })
  // An idle connection the server ends (the scratch database dropped at the bench's end) is not a
  // failure of the run, as in the app's own pool (db/postgres/driver.ts); without a listener it ended
  // the bench with an unhandled 'error' event.
  pool.on('error', () => {})
  return pool
}

/** A migrated scratch database and a listening app on it; `close` removes both. */
export async function startBenchApp(
  env: Record<string, string> = {},
  sameAs?: { databaseUrl: string; prefix: string },
  /** Serve this built web app (web/dist) as production does. */
  webDist?: string,
) {
  const name = sameAs
    ? new URL(sameAs.databaseUrl).pathname.slice(1)
    : `pl_bench_${randomBytes(4).toString('hex')}`
  const url = new URL(PG_ADMIN)
  url.pathname = `/${name}`
  const db = createPostgresDb(url.toString(), 20)
  if (!sameAs) {
    await admin(`create database "${name}"`)
    await migrateToLatest(db.db, path.resolve(import.meta.dirname, '../migrations'))
  }
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    REDIS_URL,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000000',
    // One key for every app of a run (two may share a database); the databases are dropped after.
    SECRETS_KEY: BENCH_SECRETS_KEY,
    ...env,
  })
  config.redis.prefix = sameAs?.prefix ?? `b${randomBytes(4).toString('hex')}`
  config.webDist = webDist ?? '/nonexistent'
  // A benchmark is one address sending far more than a person: the per-address limits would cap it.
  config.rateLimit.signInPerMinute = 100_000_000
  config.rateLimit.guestPerMinute = 100_000_000
  const app = await buildApp(config, { db })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return {
    app,
    db: db.db,
    databaseUrl: url.toString(),
    prefix: config.redis.prefix,
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close()
      await db.close()
      if (!sameAs) {
        await admin(`drop database if exists "${name}" with (force)`)
        await deleteKeys(REDIS_URL, `${config.redis.prefix}:*`)
      }
    },
  }
}

/** The p-th percentile of `values`, in their unit, to a tenth. */
export function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return (
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) * 10) / 10
  )
}

export interface LoadResult {
  requestsPerSec: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  requests: number
  generatorCpuUsPerRequest: number
}

/** autocannon's options that travel as JSON, and `guestSignIn`: POST a new visitor of this open house each time. */
export type LoadOptions = Omit<autocannon.Options, 'requests' | 'setupClient'> & {
  guestSignIn?: number
  /** With `guestSignIn`: every guest agrees to email (the thank-you, the follow-up, the ledger). */
  emailConsent?: boolean
  /** Requests per second, evenly spaced and sent on time (load-generator.ts), instead of autocannon's load. */
  steadyRate?: number
  /** With `steadyRate`: seconds sent first at the same rate and not counted. */
  warmup?: number
}

/**
 * 50 connections for 5 s unless told otherwise, from a process of its own (load-generator.ts): the
 * server measured keeps this process's CPU to itself.
 */
export async function load(opts: LoadOptions): Promise<LoadResult & { serverCpuUsPerRequest: number }> {
  // The servers a benchmark measures run in this process: its CPU per request answered is theirs. On a
  // machine of few cores the generator shares them, so requests/s alone can measure the generator's
  // limit; the server's CPU per request is the server's own cost.
  const cpuBefore = process.cpuUsage()
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'load-generator.ts'), JSON.stringify(opts)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  const code = await new Promise((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`the load generator stopped (${code})`)
  const cpu = process.cpuUsage(cpuBefore)
  const result = JSON.parse(output) as LoadResult
  return {
    ...result,
    serverCpuUsPerRequest: Math.round((cpu.user + cpu.system) / Math.max(1, result.requests)),
  }
}

/**
 * `load`, measured warm, as a server that has been up a while: 10 s of the same load first, not counted.
 * A process just started spends its first thousands of requests before V8 has optimized them (server CPU
 * per guest sign-in fell from about 1.3 ms to 1.0 ms over its first 20 s at 400/s); every side of a
 * comparison gets the same warm-up.
 */
export async function loadWarm(opts: LoadOptions): ReturnType<typeof load> {
  await load({ ...opts, duration: 10 })
  return load(opts)
}

/**
 * `n` follow-ups waiting in the outbox, due in two days, as after a few busy weekends (issue 38), then
 * the database vacuumed and analyzed.
 */
export async function pendingFollowUps(pool: pg.Pool, openHouseId: number, n: number) {
  await pool.query(
    `insert into outbox (queue, job_name, payload, run_at)
     select 'mail', 'followUp', jsonb_build_object('openHouseId', $1::bigint, 'prospectId', g), now() + interval '2 days'
     from generate_series(1, $2::int) g`,
    [openHouseId, n],
  )
  await pool.query('vacuum analyze')
}

/** A new visitor's guest sign-in at the open house (SPEC §2's required fields), consenting to email or not. */
export function guestVisitor(openHouseId: number, emailConsent = false) {
  return {
    prospectFirstName: 'Bench',
    prospectLastName: 'Visitor',
    prospectEmailId: `guest-${randomUUID()}@example.com`,
    prospectPhoneNumber: '404 555 0100',
    openHouseId,
    clientRequestId: randomUUID(),
    ...(emailConsent ? { emailConsent: true, consentText: 'Email me about homes like this one.' } : {}),
  }
}

/**
 * PostgreSQL's CPU (µs) spent by the backends of `database` while `run` runs: each backend's own CPU
 * time, read from /proc (the server runs on this machine), before and after. A backend that starts
 * meanwhile counts from zero; one that ends meanwhile is missed, so the pools keep theirs open.
 */
export async function withPostgresCpu<T extends { requests: number }>(
  pool: pg.Pool,
  database: string,
  run: () => Promise<T>,
): Promise<T & { postgresCpuUsPerRequest: number | string }> {
  const backends = async () => {
    const { rows } = await pool.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and backend_type = $2',
      [database, 'client backend'],
    )
    const cpu = new Map<number, number>()
    for (const { pid } of rows) {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
        // utime and stime, in clock ticks of 10 ms
        cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10_000)
      } catch {
        return null // PostgreSQL is not on this machine (or not readable): no figure
      }
    }
    return cpu
  }
  const before = await backends()
  const result = await run()
  const after = await backends()
  if (!before || !after) return { ...result, postgresCpuUsPerRequest: '—' }
  let used = 0
  for (const [pid, us] of after) used += us - (before.get(pid) ?? 0)
  return { ...result, postgresCpuUsPerRequest: Math.round(used / Math.max(1, result.requests)) }
}

const RESULTS = path.resolve(import.meta.dirname, 'results')

/**
 * Prints a benchmark's figures and writes them to `bench/results/<name>-<time>.json`, so two runs (before
 * and after a change) can be compared.
 */
export function report(
  name: string,
  title: string,
  rows: Record<string, LoadResult | Record<string, number | string>>,
) {
  console.log(`\n${title}`)
  console.table(rows)
  fs.mkdirSync(RESULTS, { recursive: true })
  const file = path.join(RESULTS, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
  fs.writeFileSync(file, `${JSON.stringify({ title, figures: rows }, null, 2)}\n`)
  console.log(`Written to ${path.relative(process.cwd(), file)}`)
}

/**
 * A server in a process of its own (`script` in bench/, or a path, with `options` as JSON in its argv): it
 * prints one line of JSON when it is ready, which this answers, and serves until its input closes.
 */
export async function ownProcess<Ready>(
  script: string,
  ...args: string[]
): Promise<{ ready: Ready; pid: number | undefined; close(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, '--import', 'tsx', path.resolve(import.meta.dirname, script), ...args],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  const exited = new Promise((resolve) => child.once('exit', resolve))
  if (!child.stdout) throw new Error(`${script} has no output`)
  const [line] = await Promise.race([
    readline
      .createInterface({ input: child.stdout })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value]),
    exited.then(() => {
      throw new Error(`${script} stopped before it was ready`)
    }),
  ])
  return {
    ready: JSON.parse(String(line)) as Ready,
    pid: child.pid,
    async close() {
      child.stdin?.end()
      await exited
    },
  }
}

/** In a process `ownProcess` started: closes `close` and exits when the parent closes our input (or dies). */
export function serveUntilInputCloses(close: () => Promise<void>) {
  process.stdin.resume()
  process.stdin.on('close', async () => {
    await close()
    process.exit(0)
  })
}

/** `pid` and every process under it: [pid, parent's pid, resident memory in kB]. */
export function processTree(pid: number): Array<[number, number, number]> {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' })
  const rows = out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number])
  const inTree = new Set([pid])
  for (let grew = true; grew; ) {
    grew = false
    for (const [p, parent] of rows) {
      if (inTree.has(parent) && !inTree.has(p)) {
        inTree.add(p)
        grew = true
      }
    }
  }
  return rows.filter(([p]) => inTree.has(p))
}
