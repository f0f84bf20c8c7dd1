import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { createPostgresDb } from '@porchlight/server/src/db/database.ts'
import { migrateToLatest } from '@porchlight/server/src/db/migrate.ts'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { letImageUserIn } from './image-user-dirs.ts'
import { resolveServices, withDatabase } from './services.ts'

export const migrationsDir = path.resolve(import.meta.dirname, '../../migrations')

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string
    redisUrl: string
    templateDb: string
    /** Every database this run makes starts with it (`testDatabaseName`); the run drops those alone. */
    testDbPrefix: string
  }
}

/** The template's name carries a hash of the migrations, so a changed migration builds a new one. */
function templateName(): string {
  const hash = createHash('sha256')
  for (const file of fs
    .readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    hash.update(file).update(fs.readFileSync(path.join(migrationsDir, file)))
  }
  return `pl_template_${hash.digest('hex').slice(0, 12)}`
}

/** This run's mark: its creation time (base 36) and a random part, so no two runs share one. */
const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
const testDbPrefix = `pl_test_${runId}_`

/** Drops every database whose name starts with this run's prefix. */
async function dropOwnDatabases(adminUrl: string) {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where starts_with(datname, $1)`,
      [testDbPrefix],
    )
    for (const { datname } of rows) {
      await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => {})
    }
  } finally {
    await admin.end()
  }
}

export default async function setup(project: TestProject) {
  // `pnpm test` opens them once for its two runs side by side (scripts/test.ts).
  const shutImageUserOut = process.env.PORCHLIGHT_IMAGE_USER_LET_IN ? () => {} : letImageUserIn()
  const services = await resolveServices()
  const templateDb = templateName()
  const admin = new pg.Client({ connectionString: services.pgAdminUrl })
  await admin.connect()
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [templateDb])
    if (exists.rowCount === 0) {
      // Built under this run's own name: a run building the same template beside it keeps its own.
      // Whichever finishes first names the template; the other drops what it built.
      const building = `${testDbPrefix}template`
      await admin.query(`create database "${building}"`)
      const handle = createPostgresDb(withDatabase(services.pgAdminUrl, building), 2)
      try {
        await migrateToLatest(handle.db, migrationsDir)
      } finally {
        await handle.close()
      }
      await admin.query(`alter database "${building}" rename to "${templateDb}"`).catch(async (err) => {
        const won = await admin.query('select 1 from pg_database where datname = $1', [templateDb])
        if (won.rowCount === 0) throw err
        await admin.query(`drop database "${building}" with (force)`)
      })
    }
    // The template notes when a run last used it, so a run of other migrations going on beside this
    // one (another checkout of the project) keeps its template.
    await admin.query(`comment on database "${templateDb}" is '${Date.now()}'`)
    // Templates of other migrations no run has used for a day. A test database is never dropped here:
    // each run drops its own (by its prefix) when it ends, and a run beside this one may be using its.
    const { rows } = await admin.query<{ datname: string; usedAt: string | null }>(
      `select datname, shobj_description(oid, 'pg_database') as "usedAt" from pg_database
       where datname like 'pl_template_%'`,
    )
    const dayAgo = Date.now() - 86_400_000
    const stale = rows.filter(
      ({ datname, usedAt }) =>
        datname !== templateDb && !datname.startsWith(`${templateDb}_`) && !(Number(usedAt) > dayAgo),
    )
    for (const { datname } of stale) {
      await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => {})
    }
  } finally {
    await admin.end()
  }
  project.provide('pgAdminUrl', services.pgAdminUrl)
  project.provide('redisUrl', services.redisUrl)
  project.provide('templateDb', templateDb)
  project.provide('testDbPrefix', testDbPrefix)
  return async () => {
    // What test files left behind (a failed beforeAll, a file stopped by a timeout): this run's only.
    await dropOwnDatabases(services.pgAdminUrl)
    await services.stop()
    shutImageUserOut()
  }
}
