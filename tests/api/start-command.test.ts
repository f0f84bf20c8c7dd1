// `pnpm start` as a laptop user runs it (scripts/start.mjs, embedded database): in a copy of the checkout
// (the embedded database and the web build live in the checkout), its node_modules linked as after
// `pnpm install`, the web app as the last start built it. The first start bundles the server and makes
// the database in a process of its own, side by side, and builds no web app; the one command serves the web app and the API, and a guest
// signs in; a second start neither builds nor makes anything; a change to a server source is bundled
// on the next start, and runs.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createEmbeddedDb } from '@porchlight/server/src/db/embedded.ts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sourceHash, webInputs } from '../../scripts/source-hash.mjs'
import { bundleEntry } from '../../server/start-bundle.ts'
import { apiCaller, deleteKeys } from '../support/api.ts'
import { createTestDatabase, TEST_SECRETS_KEY } from '../support/app.ts'
import { guestFields, makePlannedAgent } from '../support/factories.ts'
import { scheduleHostedBy } from '../support/open-houses.ts'
import { freePort, type StartedProcess, startProcess, stop } from '../support/processes.ts'

const repo = path.resolve(import.meta.dirname, '../..')
const prefix = `st${randomBytes(4).toString('hex')}`
/** Not copied: what a clone does not have (data, builds), and node_modules (linked). */
const leftOut = new Set(['.git', 'node_modules', 'data', 'dist'])
let checkout: string
let indexBuiltAt: number

beforeAll(() => {
  checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'porchlight-start-'))
  fs.cpSync(repo, checkout, { recursive: true, filter: (src) => !leftOut.has(path.basename(src)) })
  for (const dir of ['.', 'server', 'web', 'shared', 'migrations']) {
    const modules = path.join(repo, dir, 'node_modules')
    if (fs.existsSync(modules)) fs.symlinkSync(modules, path.join(checkout, dir, 'node_modules'))
  }
  // The web app as a start built it: the build (`pnpm build:web`), and the hash of its sources beside it.
  fs.cpSync(path.join(repo, 'web', 'dist'), path.join(checkout, 'web', 'dist'), { recursive: true })
  fs.writeFileSync(path.join(checkout, 'web', 'dist', '.source-hash'), `${sourceHash(checkout, webInputs)}\n`)
  indexBuiltAt = fs.statSync(path.join(checkout, 'web', 'dist', 'index.html')).mtimeMs
})

afterAll(async () => {
  if (checkout) {
    // The copy's bundle, in the server's node_modules it links to (through the copy's link: first).
    fs.rmSync(path.dirname(bundleEntry(checkout)), { recursive: true, force: true })
    fs.rmSync(checkout, { recursive: true, force: true })
  }
  await deleteKeys(inject('redisUrl'), `${prefix}:*`)
})

/** `pnpm start` in the copy, as a laptop user's shell runs it, on `port`. */
function startCommand(port: number, host: string, env: Record<string, string> = {}): StartedProcess {
  return startProcess('pnpm start', process.execPath, ['scripts/start.mjs'], {
    cwd: checkout,
    env: {
      PATH: process.env.PATH,
      REDIS_URL: inject('redisUrl'),
      REDIS_KEY_PREFIX: prefix,
      SECRETS_KEY: TEST_SECRETS_KEY,
      PORT: String(port),
      HOST: host,
      ...env,
    },
  })
}

async function pnpmStart(
  env: Record<string, string> = {},
): Promise<{ started: StartedProcess; url: string }> {
  const port = await freePort()
  const started = startCommand(port, '127.0.0.1', env)
  await started.waitUntil('the banner', () => started.output().includes('Porchlight is running'), 150_000)
  return { started, url: `http://127.0.0.1:${port}` }
}

describe('pnpm start on the embedded database', () => {
  it('bundles the server and makes the database on the first start, builds no web app, serves it', async () => {
    const { started, url } = await pnpmStart()
    try {
      expect(started.output()).toMatch(
        /Bundling the server and making the embedded database \(first start\)… done \(server [\d.]+ s, database [\d.]+ s\)\./,
      )
      expect(started.output()).not.toMatch(/building the web app/i)
      const page = await fetch(`${url}/`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('<html')
      expect((await fetch(`${url}/api/ready`)).status).toBe(200)
    } finally {
      await stop(started.child)
    }
    // Stopped by SIGTERM as by Ctrl-C: it drains and closes the database (next start reopens it).
    expect(started.child.exitCode).toBe(0)
    expect(fs.existsSync(path.join(checkout, 'data', 'pg', 'PG_VERSION'))).toBe(true)
    expect(fs.statSync(path.join(checkout, 'web', 'dist', 'index.html')).mtimeMs).toBe(indexBuiltAt)
  }, 240_000)

  it('starts again without building or making anything, and a guest signs in', async () => {
    // Two agents, made while nothing runs on the data (the embedded database serves one process).
    const handle = await createEmbeddedDb(path.join(checkout, 'data', 'pg'))
    const listing = await makePlannedAgent(handle.db, { brokerFirmLicense: 'FIRM-START' })
    const host = await makePlannedAgent(handle.db, { brokerFirmLicense: 'FIRM-START' })
    await handle.close()

    const { started, url } = await pnpmStart()
    try {
      expect(started.output()).not.toMatch(
        /bundling the server|building the web app|making the embedded database/i,
      )
      const call = apiCaller(url)
      const oh = await scheduleHostedBy({ call }, listing, host)
      const signIn = await call('POST', '/public/saveProspect', {
        body: guestFields(oh.id),
      })
      expect(signIn.status).toBe(201)
    } finally {
      await stop(started.child)
    }
    expect(fs.statSync(path.join(checkout, 'web', 'dist', 'index.html')).mtimeMs).toBe(indexBuiltAt)
  }, 240_000)

  it('bundles the server again when one of its sources changed, and runs the change', async () => {
    const entry = path.join(checkout, 'server', 'src', 'bin', 'start.ts')
    fs.appendFileSync(entry, "\nconsole.log('This start runs the changed source.')\n")
    const { started, url } = await pnpmStart()
    try {
      expect(started.output()).toMatch(/Bundling the server… done \(server [\d.]+ s\)\./)
      expect(started.output()).not.toMatch(/building the web app|making the embedded database/i)
      await started.waitUntil('the changed line', () =>
        started.output().includes('This start runs the changed source.'),
      )
      expect((await fetch(`${url}/api/ready`)).status).toBe(200)
    } finally {
      await stop(started.child)
    }
  }, 240_000)

  it('starts from the bundle on a PostgreSQL of its own behind the migrations, and migrates it', async () => {
    // A database whose newest migration has not run (undone, its row gone): the start from the bundle has
    // no loader for TypeScript, and runs the migration as the bundle made it (same name).
    const database = await createTestDatabase()
    try {
      const newest = fs
        .readdirSync(path.join(repo, 'migrations'))
        .filter((f) => /^\d{12}-.*\.ts$/.test(f))
        .sort()
        .at(-1) as string
      const name = newest.replace(/\.ts$/, '')
      const migration = await import(path.join(repo, 'migrations', newest))
      await migration.down(database.handle.db)
      await sql`delete from kysely_migration where name = ${name}`.execute(database.handle.db)

      const { started, url } = await pnpmStart({ DATABASE_URL: database.url })
      try {
        expect(started.output()).not.toMatch(/bundling the server|building the web app/i)
        expect((await fetch(`${url}/api/ready`)).status).toBe(200)
      } finally {
        await stop(started.child)
      }
      const ran = await sql<{ name: string }>`select name from kysely_migration where name = ${name}`.execute(
        database.handle.db,
      )
      expect(ran.rows).toEqual([{ name }])
    } finally {
      await database.drop()
    }
  }, 240_000)

  it('says what did not build and stops, without serving, when a server source does not compile', async () => {
    // The building runs in a process of its own (scripts/start.ts): its failure is this command's.
    const file = path.join(checkout, 'server', 'src', 'errors.ts')
    const source = fs.readFileSync(file, 'utf8')
    fs.appendFileSync(file, '\nexport const broken = (\n')
    try {
      const started = startCommand(await freePort(), '127.0.0.1')
      await new Promise((resolve) => started.child.once('exit', resolve))
      expect(started.child.exitCode).toBe(1)
      expect(started.output()).toContain('Bundling the server failed.')
      expect(started.output()).toContain('errors.ts')
      expect(started.output()).not.toContain('Porchlight is running')
    } finally {
      fs.writeFileSync(file, source)
    }
  }, 120_000)

  it('says plainly that its port is in use, and stops', async () => {
    const holder = net.createServer()
    const port = await freePort()
    await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve))
    try {
      const started = startCommand(port, '0.0.0.0')
      await new Promise((resolve) => started.child.once('exit', resolve))
      expect(started.child.exitCode).toBe(1)
      expect(started.output()).toContain(`Port ${port} is in use (another pnpm start, or another program)`)
      expect(started.output()).not.toMatch(/\bat \S+ \(node:/)
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  }, 120_000)
})
