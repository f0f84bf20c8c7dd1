import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'vite'
import { precompressDir } from './precompress.mjs'

const root = path.resolve(import.meta.dirname, '..')

/**
 * The web app's build: the agent app, then the guest pages into the same folder (vite.config.ts, mode
 * `guest`), then the compressed copies of every text file (precompress.mjs): `best` for production,
 * `fast` for the build `pnpm start` makes on a laptop. One process for all three, in plain JavaScript:
 * under TypeScript's loader (tsx) its hooks see every module vite and rolldown load, about 2 s of the
 * build on a 2-core machine; as three commands, each loaded Node, vite and its config again. Both
 * builds, one after the other, took 7.4–8.0 s either way, and take 5.3–5.8 s here.
 */
export async function buildWebApp(
  /** @type {'best' | 'fast'} */ level,
  /** @type {'info' | 'warn'} */ logLevel = 'info',
) {
  await build({ root, logLevel })
  await build({ root, mode: 'guest', logLevel })
  await precompressDir(path.join(root, 'dist'), level)
}

// `node build/build.mjs [--fast] [--quiet]`: `pnpm build:web`, and `pnpm start`'s build (scripts/start.ts).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  await buildWebApp(args.includes('--fast') ? 'fast' : 'best', args.includes('--quiet') ? 'warn' : 'info')
}
