// `pnpm start`. Plain JavaScript: when nothing is to be built (the web app and the server's bundle made
// from the sources as they are), the server starts from its bundle in this process without TypeScript's
// loader, whose hooks would see every module the server loads (about 1 s of a start). Otherwise
// scripts/start.ts builds what changed, makes a first start's database, and starts the server.
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

if (unchanged) {
  // As scripts/start.ts starts it: the banner and warnings, its stacks read through the source maps.
  process.env.LOG_LEVEL ??= 'warn'
  process.setSourceMapsEnabled(true)
  await import(pathToFileURL(path.join(bundle.dir, 'start.mjs')).href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('./start.ts')
}
