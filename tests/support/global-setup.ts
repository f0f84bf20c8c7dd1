import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { createPostgresDb } from '@porchlight/server/src/db/database.ts'
import { migrateToLatest } from '@porchlight/server/src/db/migrate.ts'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { resolveServices, withDatabase } from './services.ts'

export const migrationsDir = path.resolve(import.meta.dirname, '../../migrations')

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string
    redisUrl: string
    templateDb: string
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

export default async function setup(project: TestProject) {
  const services = await resolveServices()
  const templateDb = templateName()
  const admin = new pg.Client({ connectionString: services.pgAdminUrl })
  await admin.connect()
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [templateDb])
    if (exists.rowCount === 0) {
      await admin.query(`create database "${templateDb}_building"`).catch(async () => {
        await admin.query(`drop database "${templateDb}_building" with (force)`)
        await admin.query(`create database "${templateDb}_building"`)
      })
      const handle = createPostgresDb(withDatabase(services.pgAdminUrl, `${templateDb}_building`), 2)
      try {
        await migrateToLatest(handle.db, migrationsDir)
      } finally {
        await handle.close()
      }
      await admin.query(`alter database "${templateDb}_building" rename to "${templateDb}"`)
    }
    // The template notes when a run last used it, so a run of other migrations going on beside this
    // one (another checkout of the project) keeps its template.
    await admin.query(`comment on database "${templateDb}" is '${Date.now()}'`)
    // Databases that runs killed over an hour ago left behind (a run going on beside this one keeps
    // its own), and templates of other migrations no run has used for a day.
    const { rows } = await admin.query<{ datname: string; usedAt: string | null }>(
      `select datname, shobj_description(oid, 'pg_database') as "usedAt" from pg_database
       where datname like 'pl_test_%' or datname like 'pl_template_%'`,
    )
    const hourAgo = Date.now() - 3600_000
    const dayAgo = Date.now() - 86_400_000
    const stale = rows.filter(({ datname, usedAt }) => {
      if (datname.startsWith('pl_template_'))
        return (
          datname !== templateDb &&
          !datname.startsWith(`${templateDb}_`) &&
          !datname.endsWith('_building') &&
          !(Number(usedAt) > dayAgo)
        )
      const created = Number(/^pl_test_(\d{13})_/.exec(datname)?.[1])
      return Number.isFinite(created) && created < hourAgo
    })
    for (const { datname } of stale) {
      await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => {})
    }
  } finally {
    await admin.end()
  }
  project.provide('pgAdminUrl', services.pgAdminUrl)
  project.provide('redisUrl', services.redisUrl)
  project.provide('templateDb', templateDb)
  return () => services.stop()
}
