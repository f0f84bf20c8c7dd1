import fs from 'node:fs/promises'
import { CamelCasePlugin, Kysely } from 'kysely'
import type { DbHandle } from './handle.ts'
import { TYPE_PARSERS } from './postgres/settings.ts'
import type { Database } from './types.ts'
import { WriteWatchPlugin } from './write-watch.ts'

/** Whether a process with this id is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * PGlite serves one process: a second one on the same data (`pnpm firm:verify` while `pnpm start`
 * runs) would corrupt it. The first takes a pid file; another is refused with what to do instead.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lock = `${dataDir}.pid`
  const holder = Number(await fs.readFile(lock, 'utf8').catch(() => ''))
  if (holder && holder !== process.pid && alive(holder)) {
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${holder} (pnpm start). Stop it first, or set DATABASE_URL.`,
    )
  }
  await fs.writeFile(lock, String(process.pid))
  return () => fs.rm(lock, { force: true })
}

/**
 * Sized for a laptop: initdb writes PostgreSQL's server defaults (128 MB of shared buffers, 100
 * connections), which in PGlite are this process's own memory, touched as data is read, for one
 * connection. A laptop's data fits 32 MB many times over (the file system caches the rest); the other
 * settings of PGlite's own defaults stay, durability included (PGlite starts with fsync off: a power
 * cut can lose the last writes of the embedded database, as before; DATABASE_URL for data that matters).
 */
const LAPTOP_SETTINGS = ['-c', 'shared_buffers=32MB', '-c', 'max_connections=8']

/** PostgreSQL in this process (PGlite), its data under `dataDir` (or `memory://…`). */
export async function createEmbeddedDb(dataDir: string): Promise<DbHandle> {
  const memory = dataDir.startsWith('memory://')
  if (!memory) await fs.mkdir(dataDir, { recursive: true })
  const unlock = memory ? async () => {} : await lockDataDir(dataDir)
  const [{ PGlite }, { PGliteDialect }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('kysely-pglite-dialect'),
    // The trigram indexes of the prospect name search (migration 202611240007).
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ])
  const pglite = await PGlite.create(dataDir, {
    parsers: TYPE_PARSERS,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...LAPTOP_SETTINGS],
  })
  const writes = new WriteWatchPlugin()
  const db = new Kysely<Database>({
    dialect: new PGliteDialect(pglite),
    plugins: [new CamelCasePlugin(), writes],
  })
  return {
    db,
    kind: 'embedded',
    writes,
    // The data is this process's alone (the lock above): every write to it is one of this handle's.
    listen: (_channel, onNotify) => {
      onNotify({ listening: true })
      return async () => {}
    },
    poolWaitMs: () => 0,
    close: async () => {
      await db.destroy()
      await unlock()
    },
  }
}
