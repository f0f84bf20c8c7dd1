// What `pnpm start` builds from, hashed: equal to the hash kept beside a build, no build. One function
// serves the web build (web/dist/.source-hash) and the server's bundle (server/start-bundle.ts).
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** What the web build reads: its sources, config and the shared package, and the lockfile. */
const webInputs = [
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
/** Written by the web build itself (the router plugin): not an input. */
const generated = 'web/src/routeTree.gen.ts'

function files(root: string, entry: string): string[] {
  const full = path.join(root, entry)
  if (!fs.existsSync(full)) return []
  if (!fs.statSync(full).isDirectory()) return [full]
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name))
    .filter(
      (f) => path.relative(root, f) !== generated && !f.endsWith('.test.ts') && !f.endsWith('.test.tsx'),
    )
    .sort()
}

/**
 * A SHA-256 of the files and folders `inputs` (relative to the checkout at `root`; tests and files a
 * build writes itself left out): their names and contents.
 */
export function sourceHash(root: string, inputs: readonly string[]): string {
  const hash = createHash('sha256')
  for (const file of inputs.flatMap((entry) => files(root, entry))) {
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0')
  }
  return hash.digest('hex')
}

/** A SHA-256 of the web build's inputs in the checkout at `root` (kept in web/dist/.source-hash). */
export function webSourceHash(root: string): string {
  return sourceHash(root, webInputs)
}
