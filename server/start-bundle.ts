// `pnpm start`'s server: one ESM bundle of server/src/bin/start.ts, of the worker process's entry
// (server/src/bin/worker.ts) and of `pnpm migrate`'s (server/src/bin/migrate.ts, which makes a first
// start's database), made with esbuild as the production build is (server/build.ts: our code and the
// workspace package @porchlight/shared bundled, every npm dependency an import), with source maps, and
// the migrations beside it as ES modules (migrations/<same name>.mjs).
// Loading it takes a fraction of loading ~600 modules through tsx. It is made again only when what it is
// made from changed: a SHA-256 of its inputs, as the web build's (scripts/web-source.ts), kept beside it.
// It lives in server/node_modules/.cache: the npm imports it keeps resolve from there to the server's
// dependencies, as from server/src. Each checkout has its own folder there (node_modules may be shared
// by links), and the bundle is told where server/src is (config.ts finds the checkout from it).
import fs from 'node:fs'
import path from 'node:path'
import { bundleFolder, serverInputs, toBuild } from '../scripts/source-hash.mjs'
import { migrationSources } from './src/db/migration-files.ts'

const entries = ['start', 'worker', 'migrate']

/** This checkout's folder for the bundle, and the file that keeps the hash of the inputs it was made from. */
const where = bundleFolder

/** The bundle's entry point for `name` (start, worker): an ES module of its own (.mjs). */
export function bundleEntry(root: string, name: 'start' | 'worker' | 'migrate' = 'start'): string {
  return path.join(where(root).dir, `${name}.mjs`)
}

/** The hash of the bundle's inputs when the bundle is not made from them (to be made), else null. */
export function bundleToMake(root: string): string | null {
  return toBuild(root, serverInputs, where(root).hashFile)
}

/**
 * Makes the bundle in a folder beside its place and renames it into it, the hash written last: a start
 * that stops halfway leaves no bundle taken for made. Resolves its seconds.
 */
export async function makeBundle(root: string, hash: string): Promise<number> {
  const started = Date.now()
  const { build, stop } = await import('esbuild')
  const server = path.join(root, 'server')
  const { dependencies } = JSON.parse(fs.readFileSync(path.join(server, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
  }
  const { dir, hashFile } = where(root)
  const temporary = `${dir}.${process.pid}.tmp`
  fs.rmSync(temporary, { recursive: true, force: true })
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    outExtension: { '.js': '.mjs' },
    absWorkingDir: server,
    logLevel: 'silent',
  } as const
  await Promise.all([
    build({
      ...common,
      entryPoints: entries.map((name) => path.join(server, 'src', 'bin', `${name}.ts`)),
      splitting: true,
      outdir: temporary,
      chunkNames: '[name]-[hash]',
      external: Object.keys(dependencies).filter((name) => !dependencies[name]?.startsWith('workspace:')),
      define: {
        // config.ts finds the checkout (data/, web/dist) from server/src, not from the bundle.
        PORCHLIGHT_SERVER_SRC: JSON.stringify(path.join(server, 'src')),
        // The migrations made beside it, below: a start behind them runs them without TypeScript's loader.
        PORCHLIGHT_MIGRATIONS_DIR: JSON.stringify(path.join(dir, 'migrations')),
      },
    }),
    // The migrations as the production build makes them (server/build.ts), same names, as ES modules.
    build({
      ...common,
      entryPoints: migrationSources(path.join(root, 'migrations')),
      outdir: path.join(temporary, 'migrations'),
      packages: 'external',
    }),
  ]).finally(() => stop()) // esbuild's service process would stay beside the server (~40 MB)
  fs.rmSync(dir, { recursive: true, force: true })
  fs.renameSync(temporary, dir)
  fs.writeFileSync(hashFile, `${hash}\n`)
  return (Date.now() - started) / 1000
}
