import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { buildApp } from '@porchlight/server/src/compose/app.ts'
import { startWorkerRuntime } from '@porchlight/server/src/compose/worker.ts'
import { type Config, loadConfig } from '@porchlight/server/src/config.ts'
import { createPostgresDb, type DbHandle } from '@porchlight/server/src/db/database.ts'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import pino from 'pino'
import { inject } from 'vitest'
import { type ApiCall, apiCaller, deleteKeys } from './api.ts'
import { testDatabaseName } from './databases.ts'
import { withDatabase } from './services.ts'

/** The key test apps seal stored secrets with (a process of a test that shares their data needs it). */
export const TEST_SECRETS_KEY = 'ZYu7tnHCdmrVdYA0cpQgYB5CMSQRlK/D9a6Jcv3n1Vk='

export interface TestDatabase {
  name: string
  url: string
  handle: DbHandle
  drop(): Promise<void>
}

/** A fresh database cloned from the migrated template: each test file gets its own. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl')
  const name = testDatabaseName()
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`create database "${name}" template "${inject('templateDb')}"`)
  } finally {
    await admin.end()
  }
  const url = withDatabase(adminUrl, name)
  const handle = createPostgresDb(url, 20)
  return {
    name,
    url,
    handle,
    async drop() {
      await handle.close()
      const a = new pg.Client({ connectionString: adminUrl })
      await a.connect()
      await a.query(`drop database if exists "${name}" with (force)`).finally(() => a.end())
    },
  }
}

export interface TestAppOptions {
  /** Share another test app's database and Redis prefix (a second API process). */
  sameAs?: TestApp
  /**
   * Database connections of its own, as another process has: it learns of writes made through the
   * test's `db` (or another app) only from the database. By default an app shares the test's.
   */
  ownConnections?: boolean
  env?: Record<string, string>
  /** Serve the built web app (browser tests). */
  web?: boolean
  /** Extra routes, registered like the app's own. */
  extend?: (app: FastifyInstance) => void | Promise<void>
  /** Adjust settings that have no environment variable (e.g. the sign-in rate limit). */
  configure?: (config: Config) => void
}

export interface TestApp {
  app: FastifyInstance
  config: Config
  db: DbHandle['db']
  database: TestDatabase
  /** http://127.0.0.1:PORT — the app listens on a free port. */
  url: string
  /** Starts BullMQ workers and the outbox relay in this process, on this app's database and Redis prefix. */
  startWorker(): ReturnType<typeof startWorkerRuntime>
  /** Calls the API as the web app does; answers the status and the parsed body. */
  call: ApiCall
  close(): Promise<void>
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.sameAs?.database ?? (await createTestDatabase())
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: inject('redisUrl'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    SECRETS_KEY: TEST_SECRETS_KEY,
    // The apps of a test file share one event loop: building one blocks it for about a second, which
    // another app would take for overload and shed. A test of load shedding sets its own thresholds.
    SHED_EVENT_LOOP_DELAY_MS: '0',
    ...options.env,
  })
  config.redis.prefix = options.sameAs?.config.redis.prefix ?? `t${randomBytes(5).toString('hex')}`
  if (!options.web) config.webDist = '/nonexistent'
  // A web build of one's own (vite build --outDir …), so a rebuild elsewhere cannot swap assets mid-test.
  else if (process.env.TEST_WEB_DIST) config.webDist = process.env.TEST_WEB_DIST
  // Test files sign in far more than a person would; the limit itself is tested with its real value.
  config.rateLimit.signInPerMinute = 1000
  config.rateLimit.accountMailsPerHour = 1000
  options.configure?.(config)
  const handle = options.ownConnections ? createPostgresDb(database.url, 5) : database.handle
  const app = await buildApp(config, { db: handle, extend: options.extend })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  config.publicUrl = url
  const workers: Array<ReturnType<typeof startWorkerRuntime>> = []
  return {
    app,
    config,
    db: database.handle.db,
    database,
    url,
    call: apiCaller(url),
    startWorker() {
      const runtime = startWorkerRuntime(config, database.handle.db, pino({ level: 'silent' }))
      workers.push(runtime)
      return runtime
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()))
      await app.close()
      if (handle !== database.handle) await handle.close()
      if (!options.sameAs) {
        await deleteKeys(inject('redisUrl'), `${config.redis.prefix}:*`)
        await database.drop()
      }
    },
  }
}
