// What `pnpm start` builds from, hashed: equal to the hash kept beside a build, no build. Plain JavaScript,
// so that scripts/start.mjs can tell an unchanged checkout without loading TypeScript. One function serves
// the web build (web/dist/.source-hash) and the server's bundle (server/start-bundle.ts).
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** What the web build reads: its sources, config and the shared package, and the lockfile. */
export const webInputs = [
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

/**
 * What the server's bundle is made from: the server's and the shared package's sources, the lockfile,
 * settings; and the migrations, which the bundle holds made as JavaScript (a start behind them runs them
 * from there).
 */
export const serverInputs = [
  'server/src',
  'server/package.json',
  'server/start-bundle.ts',
  'shared/src',
  'shared/package.json',
  'migrations',
  'pnpm-lock.yaml',
  'tsconfig.json',
  'tsconfig.base.json',
]

/** Written by the web build itself (the router plugin): not an input. */
const generated = 'web/src/routeTree.gen.ts'

/** @param {string} root @param {string} entry @returns {string[]} */
function files(root, entry) {
  const full = path.join(root, entry)
  if (!fs.existsSync(full)) return []
  if (!fs.statSync(full).isDirectory()) return [full]
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && !d.parentPath.includes(`${path.sep}node_modules`))
    .map((d) => path.join(d.parentPath, d.name))
    .filter(
      (f) => path.relative(root, f) !== generated && !f.endsWith('.test.ts') && !f.endsWith('.test.tsx'),
    )
    .sort()
}

/**
 * A SHA-256 of the files and folders `inputs` (relative to the checkout at `root`; tests and files a
 * build writes itself left out): their names and contents.
 * @param {string} root
 * @param {readonly string[]} inputs
 * @returns {string}
 */
export function sourceHash(root, inputs) {
  const hash = createHash('sha256')
  for (const file of inputs.flatMap((entry) => files(root, entry))) {
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0')
  }
  return hash.digest('hex')
}

/**
 * This checkout's folder for the server's bundle (server/node_modules/.cache: its npm imports resolve from
 * there to the server's dependencies; each checkout has its own folder, node_modules may be shared by
 * links), and the file keeping the hash of the inputs it was made from.
 * @param {string} root
 */
export function bundleFolder(root) {
  const checkout = createHash('sha256').update(root).digest('hex').slice(0, 16)
  const dir = path.join(root, 'server', 'node_modules', '.cache', 'porchlight-start', checkout)
  return { dir, hashFile: path.join(dir, '.source-hash') }
}

/**
 * Whether what was built from `inputs` is current: the hash kept in `hashFile` is theirs. Answers the
 * inputs' hash when not (to be built), else null.
 * @param {string} root
 * @param {readonly string[]} inputs
 * @param {string} hashFile
 * @returns {string | null}
 */
export function toBuild(root, inputs, hashFile) {
  const hash = sourceHash(root, inputs)
  if (fs.existsSync(hashFile) && fs.readFileSync(hashFile, 'utf8').trim() === hash) return null
  return hash
}
