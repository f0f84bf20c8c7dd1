// The production build as the image runs it: `pnpm build:server` output started by plain node (no
// TypeScript loader), on PostgreSQL and Redis servers, refusing to start without them.
import { type ChildProcess, execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { deleteKeys } from '../support/api.ts'
import { createTestDatabase, TEST_SECRETS_KEY, type TestDatabase } from '../support/app.ts'
import { testDatabaseName } from '../support/databases.ts'
import { makeAgent } from '../support/factories.ts'
import { freePort, startProcess, stop } from '../support/processes.ts'
import { withDatabase } from '../support/services.ts'
import { connectSocket } from '../support/socket.ts'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')
const server = path.join(root, 'server')
const migrationNames = fs
  .readdirSync(path.join(root, 'migrations'))
  .filter((f) => /^\d{12}-[\w-]+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort()

const prefix = `b${randomBytes(5).toString('hex')}`
const emptyDb = testDatabaseName('build')
const heartbeatFile = path.join(os.tmpdir(), `porchlight-heartbeat-${prefix}`)
const children = new Set<ChildProcess>()
let database: TestDatabase

/** Only what the process is given: nothing leaks in from the test runner (no tsx loader, no DATABASE_URL). */
function envWith(settings: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, LOG_LEVEL: 'warn', REDIS_KEY_PREFIX: prefix, ...settings }
}

function servers(): Record<string, string> {
  return { DATABASE_URL: database.url, REDIS_URL: inject('redisUrl'), SECRETS_KEY: TEST_SECRETS_KEY }
}

/** Runs a compiled entry point to its end. */
async function runDist(script: string, env: NodeJS.ProcessEnv) {
  return run(process.execPath, [`server/dist/${script}`], { cwd: root, env, timeout: 30_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  )
}

/** Starts a long-running compiled entry point; afterAll stops it. */
function startDist(script: string, env: NodeJS.ProcessEnv) {
  const started = startProcess(script, process.execPath, [`server/dist/${script}`], { cwd: root, env })
  children.add(started.child)
  return started
}

async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') })
  await client.connect()
  await client.query(query).finally(() => client.end())
}

async function appliedMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>('select name from kysely_migration order by name')
    return rows.map((r) => r.name)
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  // What `pnpm build:server` runs; about a second.
  await run(process.execPath, ['--import', 'tsx', 'build.ts'], { cwd: server })
  database = await createTestDatabase()
}, 120_000)

afterAll(async () => {
  await Promise.all([...children].map(stop))
  fs.rmSync(heartbeatFile, { force: true })
  await admin(`drop database if exists "${emptyDb}" with (force)`)
  await database?.drop()
  await deleteKeys(inject('redisUrl'), `${prefix}:*`)
}, 60_000)

describe('the compiled server', () => {
  it('serves the API from node server/dist/api.js', async () => {
    const port = await freePort()
    const api = startDist('api.js', envWith({ ...servers(), PORT: String(port), HOST: '127.0.0.1' }))
    const url = `http://127.0.0.1:${port}/api`
    await api.waitUntil('a ready answer', () =>
      fetch(`${url}/ready`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status === 200,
        () => false,
      ),
    )
    const plans = await fetch(`${url}/pricingplanmgmt/getAllOfferedPricingPlans/0`)
    expect(plans.status).toBe(200)
    expect((await plans.json()).data.length).toBeGreaterThan(0)
    expect(api.output()).not.toMatch(/"level":(50|60)/)
  }, 60_000)

  it('runs the worker from node server/dist/worker.js, touching its heartbeat', async () => {
    const worker = startDist('worker.js', envWith({ ...servers(), WORKER_HEARTBEAT_FILE: heartbeatFile }))
    await worker.waitUntil('a heartbeat', () => fs.existsSync(heartbeatFile))
    expect(Date.now() - fs.statSync(heartbeatFile).mtimeMs).toBeLessThan(10_000)
  }, 60_000)

  it('refuses to start the API or a worker without SECRETS_KEY, in one line', async () => {
    const { SECRETS_KEY: _, ...withoutKey } = servers()
    const answers = await Promise.all(
      ['api.js', 'worker.js'].map((script) => runDist(script, envWith(withoutKey))),
    )
    for (const { code, stdout, stderr } of answers) {
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(stderr.trim()).toMatch(/^SECRETS_KEY is not set: [^\n]*openssl rand -base64 32[^\n]*$/)
    }
  }, 60_000)

  it('refuses to start the API or a worker without DATABASE_URL and REDIS_URL, in one line', async () => {
    const answers = await Promise.all(
      ['api.js', 'worker.js'].flatMap((script) => [
        runDist(script, envWith({})),
        runDist(script, envWith({ DATABASE_URL: database.url })),
      ]),
    )
    for (const [i, { code, stdout, stderr }] of answers.entries()) {
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(stderr).not.toMatch(/\n\s+at /)
      expect(stderr.trim()).toMatch(
        i % 2 === 0
          ? /^DATABASE_URL and REDIS_URL are not set: [^\n]*pnpm start[^\n]*$/
          : /^REDIS_URL is not set: [^\n]*pnpm start[^\n]*$/,
      )
    }
  }, 60_000)

  it('migrates an empty database with the compiled migrations, under the same names', async () => {
    await admin(`create database "${emptyDb}"`)
    const url = withDatabase(inject('pgAdminUrl'), emptyDb)
    const first = await runDist('migrate.js', envWith({ DATABASE_URL: url }))
    expect(first.stderr).toBe('')
    expect(first.stdout.trim()).toBe(`Applied: ${migrationNames.join(', ')}`)
    expect(await appliedMigrations(url)).toEqual(migrationNames)
    // Migrated under tsx, from the .ts files: the compiled build finds nothing to do.
    expect(await appliedMigrations(database.url)).toEqual(migrationNames)
    const again = await runDist('migrate.js', envWith({ DATABASE_URL: database.url }))
    expect(again.stdout.trim()).toBe('Database is up to date.')
  }, 60_000)

  it('stops within 10 s of SIGTERM with a browser connected, ending its socket', async () => {
    const port = await freePort()
    const api = startDist('api.js', envWith({ ...servers(), PORT: String(port), HOST: '127.0.0.1' }))
    const origin = `http://127.0.0.1:${port}`
    await api.waitUntil('a ready answer', () =>
      fetch(`${origin}/api/ready`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status === 200,
        () => false,
      ),
    )
    const { token } = await makeAgent(database.handle.db)
    const socket = await connectSocket(origin, { token })
    const ended = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)))
    // A keep-alive HTTP connection left idle, as a browser's is.
    expect((await fetch(`${origin}/api/health`)).status).toBe(200)

    const child = [...children].at(-1) as ChildProcess
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const started = Date.now()
    child.kill('SIGTERM')
    const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 10_000))])
    expect(code).toBe(0)
    expect(Date.now() - started).toBeLessThan(10_000)
    // A dropped connection, which socket.io clients retry (the web shows "Reconnecting…").
    expect(await ended).toBe('transport close')
    socket.close()
  }, 60_000)
})
