// `pnpm start`: builds the web app only when its sources changed since the build in web/dist (a hash of
// them kept in web/dist/.source-hash), quietly: its output is shown only when it fails. Then the
// server starts in this same process (server/src/bin/start.ts prints the one banner).
import { spawn } from 'node:child_process'
import cluster from 'node:cluster'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const web = path.join(root, 'web')
const hashFile = path.join(web, 'dist', '.source-hash')

/** What the web build reads: its sources, config and the shared package, and the lockfile. */
const inputs = [
  'web/src',
  'web/public',
  'web/build',
  'web/index.html',
  'web/guest.html',
  'web/landing.html',
  'web/vite.config.ts',
  'web/package.json',
  'web/tsconfig.json',
  'shared/src',
  'shared/package.json',
  'pnpm-lock.yaml',
]
/** Written by the build itself (the router plugin): not an input. */
const generated = new Set([path.join(root, 'web/src/routeTree.gen.ts')])

function files(entry: string): string[] {
  const full = path.join(root, entry)
  if (!fs.existsSync(full)) return []
  if (!fs.statSync(full).isDirectory()) return [full]
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name))
    .filter((f) => !generated.has(f) && !f.endsWith('.test.ts') && !f.endsWith('.test.tsx'))
    .sort()
}

function sourceHash(): string {
  const hash = createHash('sha256')
  for (const file of inputs.flatMap(files)) {
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0')
  }
  return hash.digest('hex')
}

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const vite = path.join(web, 'node_modules', '.bin', 'vite')
    const child = spawn(vite, args, { cwd: web, stdio: ['ignore', 'pipe', 'pipe'] })
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

async function buildWebIfChanged(): Promise<void> {
  const hash = sourceHash()
  const built = fs.existsSync(path.join(web, 'dist', 'index.html'))
  if (built && fs.existsSync(hashFile) && fs.readFileSync(hashFile, 'utf8').trim() === hash) return
  const started = Date.now()
  process.stdout.write(built ? 'The web app changed: building it… ' : 'Building the web app (first start)… ')
  // As `pnpm build:web` (web/package.json): the agent app, then the guest pages into the same folder.
  for (const args of [['build'], ['build', '--mode', 'guest']]) {
    const { code, output } = await run(args)
    if (code !== 0) {
      console.log('failed.')
      console.error(output)
      process.exit(1)
    }
  }
  fs.writeFileSync(hashFile, `${hash}\n`)
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s.`)
}

// The API processes of WEB_CONCURRENCY run this file again: the supervisor built what was needed.
if (cluster.isPrimary) await buildWebIfChanged()
// A laptop's terminal shows the banner and what went wrong, not a line per request (LOG_LEVEL=info does).
process.env.LOG_LEVEL ??= 'warn'
await import('../server/src/bin/start.ts')
