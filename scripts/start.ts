// `pnpm start`: makes the server's bundle (server/start-bundle.ts) and builds the web app only when
// their sources changed since (a hash of them kept beside each), quietly: output is shown only when a
// step fails. On a first start the embedded database is made (initdb, migrations) by `pnpm migrate`'s
// entry point in a process of its own at the same time: they take a core each, and the memory initdb
// leaves behind goes with its process. It runs in a process of its own under TypeScript's loader
// (scripts/start.mjs starts it), which then starts the server from its bundle without that loader.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { loadConfig } from '../server/src/config.ts'
import { bundleEntry, bundleToMake, makeBundle } from '../server/start-bundle.ts'
import { sourceHash, toBuild, webInputs } from './source-hash.mjs'

const root = path.resolve(import.meta.dirname, '..')
const web = path.join(root, 'web')
const hashFile = path.join(web, 'dist', '.source-hash')

/** Runs a command with its output kept (shown only when it fails). */
function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c) => {
      output += c
    })
    child.stderr.on('data', (c) => {
      output += c
    })
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** Fails the start with what the step printed. */
function failed(what: string, output: string): never {
  console.log(`${what} failed.`)
  console.error(output)
  process.exit(1)
}

/** The hash of the web app's sources when web/dist is not their build, else null. */
function webToBuild(): string | null {
  const hash = toBuild(root, webInputs, hashFile)
  if (hash === null && fs.existsSync(path.join(web, 'dist', 'index.html'))) return null
  return hash ?? sourceHash(root, webInputs)
}

/**
 * Builds the web app as `pnpm build:web` does (web/build/build.mjs), in a process of its own (vite's
 * and zlib's memory goes with it), with brotli at a fast level: this build serves a laptop (`pnpm
 * build:web`, the production build, compresses at the best). Resolves its seconds.
 */
async function buildWeb(hash: string): Promise<number> {
  const started = Date.now()
  const entry = path.join(web, 'build', 'build.mjs')
  const { code, output } = await run(process.execPath, [entry, '--fast', '--quiet'], web)
  if (code !== 0) failed('Building the web app', output)
  fs.writeFileSync(hashFile, `${hash}\n`)
  return (Date.now() - started) / 1000
}

/** The embedded database's folder when it is to be made (a first start without DATABASE_URL), else null. */
function embeddedDbToMake(): string | null {
  try {
    const { db } = loadConfig()
    if (db.url || fs.existsSync(path.join(db.dataDir, 'PG_VERSION'))) return null
    return db.dataDir
  } catch {
    return null // the server's start says what is wrong with the settings
  }
}

/**
 * Makes the embedded database (initdb, then the migrations) in a process of its own: `pnpm migrate`'s
 * entry point from the server's bundle, which holds the migrations made as JavaScript, so the process
 * loads no TypeScript (once `bundled`, the bundle being made beside it, has settled). PGlite's initdb
 * runs a second PostgreSQL and initdb itself in WebAssembly, ~350 MB that this process would keep for
 * its life. Resolves its seconds.
 */
async function makeEmbeddedDb(bundled: Promise<unknown>): Promise<number> {
  const started = Date.now()
  await bundled
  const { code, output } = await run(process.execPath, [bundleEntry(root, 'migrate')], root)
  if (code !== 0) failed('Making the embedded database', output)
  return (Date.now() - started) / 1000
}

/** The server's bundle made again (~1 s of esbuild); its failure is shown as esbuild tells it. */
async function bundleServer(hash: string): Promise<number> {
  try {
    return await makeBundle(root, hash)
  } catch (err) {
    failed('Bundling the server', String(err))
  }
}

/** The server's bundle, the web build and the new database side by side, one line for all. */
async function prepare(): Promise<void> {
  const hash = webToBuild()
  const dataDir = embeddedDbToMake()
  const serverHash = bundleToMake(root)
  const bundled = serverHash === null ? Promise.resolve(0) : bundleServer(serverHash)
  const work = [
    serverHash === null ? null : { what: 'bundling the server', run: () => bundled, short: 'server' },
    hash === null ? null : { what: 'building the web app', run: () => buildWeb(hash), short: 'web app' },
    dataDir === null
      ? null
      : { what: 'making the embedded database', run: () => makeEmbeddedDb(bundled), short: 'database' },
  ].filter((w) => w !== null)
  if (work.length === 0) return
  const first = !fs.existsSync(path.join(web, 'dist', 'index.html')) || dataDir !== null
  const doing = work
    .map((w) => w.what)
    .join(', ')
    .replace(/, ([^,]*)$/, ' and $1')
  process.stdout.write(`${doing[0]?.toUpperCase()}${doing.slice(1)}${first ? ' (first start)' : ''}… `)
  const seconds = await Promise.all(work.map((w) => w.run()))
  console.log(`done (${work.map((w, i) => `${w.short} ${seconds[i]?.toFixed(1)} s`).join(', ')}).`)
}

await prepare()
