import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'vite'
import { precompressDir } from './precompress.ts'

const root = path.resolve(import.meta.dirname, '..')

/**
 * The web app's build: the agent app, then the guest pages into the same folder (vite.config.ts, mode
 * `guest`), then the compressed copies of every text file (precompress.ts): `best` for production,
 * `fast` for the build `pnpm start` makes on a laptop. One process for all three: as three commands
 * (`vite build && vite build --mode guest && tsx build/precompress.ts`) each loaded Node, vite and its
 * config again, about 3 s of a first `pnpm start` on a 2-core machine.
 */
export async function buildWebApp(level: 'best' | 'fast', logLevel: 'info' | 'warn' = 'info'): Promise<void> {
  await build({ root, logLevel })
  await build({ root, mode: 'guest', logLevel })
  await precompressDir(path.join(root, 'dist'), level)
}

// `tsx build/build.ts [--fast] [--quiet]`: `pnpm build:web`, and `pnpm start`'s build (scripts/start.ts).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  await buildWebApp(args.includes('--fast') ? 'fast' : 'best', args.includes('--quiet') ? 'warn' : 'info')
}
