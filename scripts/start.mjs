// `pnpm start`. Plain JavaScript: the server starts from its bundle in this process without TypeScript's
// loader, whose hooks would see every module the server loads (about 1 s of a start). When something is to
// be built (the web app or the server's bundle changed, or a first start's database), scripts/start.ts
// builds it first in a process of its own, under that loader, and goes with it.
import { spawn } from 'node:child_process'
import cluster from 'node:cluster'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { bundleFolder, serverInputs, toBuild, webInputs } from './source-hash.mjs'

const root = path.resolve(import.meta.dirname, '..')
const dist = path.join(root, 'web', 'dist')
const bundle = bundleFolder(root)
const unchanged =
  fs.existsSync(path.join(dist, 'index.html')) &&
  fs.existsSync(path.join(bundle.dir, 'start.mjs')) &&
  toBuild(root, webInputs, path.join(dist, '.source-hash')) === null &&
  toBuild(root, serverInputs, bundle.hashFile) === null

/** scripts/start.ts in a process of its own: its exit code; a stop asked of this process is asked of it. */
function prepare() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'start.ts')], {
      stdio: 'inherit',
    })
    const stop = (signal) => child.kill(signal)
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop)
    child.on('close', (code, signal) => {
      for (const name of ['SIGINT', 'SIGTERM']) process.off(name, stop)
      resolve(code ?? (signal ? 1 : 0))
    })
  })
}

// The API processes on PostgreSQL run this file again: the supervisor prepared what was needed.
if (!unchanged && cluster.isPrimary) {
  const code = await prepare()
  if (code !== 0) process.exit(code)
}
// A laptop's terminal shows the banner and what went wrong, not a line per request (LOG_LEVEL=info does).
process.env.LOG_LEVEL ??= 'warn'
// The server from its bundle (server/start-bundle.ts), its stacks read through the source maps.
process.setSourceMapsEnabled(true)
await import(pathToFileURL(path.join(bundle.dir, 'start.mjs')).href)
