import { CamelCasePlugin, Kysely } from 'kysely'
import type { Config } from '../config.ts'
import { createEmbeddedDb } from './embedded.ts'
import type { DbHandle } from './handle.ts'
import { listenOver } from './listen.ts'
import { PoolWaits, postgresDialect } from './postgres/driver.ts'
import type { Database } from './types.ts'
import { WriteWatchPlugin } from './write-watch.ts'

export type { Db, DbHandle, Notified } from './handle.ts'
export { createEmbeddedDb }

/**
 * PostgreSQL at `url` through our driver (postgres/driver.ts: statements prepared once per
 * connection, a transaction's BEGIN sent with its first statement), a pool of `poolSize`.
 */
export function createPostgresDb(url: string, poolSize = 10): DbHandle {
  const writes = new WriteWatchPlugin()
  const waits = new PoolWaits()
  const db = new Kysely<Database>({
    dialect: postgresDialect(url, poolSize, waits),
    plugins: [new CamelCasePlugin(), writes],
  })
  return {
    db,
    kind: 'postgres',
    writes,
    listen: (channel, onNotify) => listenOver(url, channel, onNotify),
    poolWaitMs: () => waits.takeLongest(),
    close: () => db.destroy(),
  }
}

export function createDb(config: Config['db']): Promise<DbHandle> {
  return config.url ? Promise.resolve(createPostgresDb(config.url)) : createEmbeddedDb(config.dataDir)
}
