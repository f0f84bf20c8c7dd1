import fs from 'node:fs/promises'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { FileMigrationProvider, type MigrationResultSet, Migrator } from 'kysely/migration'

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema.
export function createMigrator(db: Kysely<any>, migrationsDir: string): Migrator {
  return new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: migrationsDir }),
  })
}

function check({ error, results }: MigrationResultSet): string[] {
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error })
  }
  return (results ?? []).map((r) => r.migrationName)
}

// biome-ignore lint/suspicious/noExplicitAny: as above.
export async function migrateToLatest(db: Kysely<any>, migrationsDir: string): Promise<string[]> {
  return check(await createMigrator(db, migrationsDir).migrateToLatest())
}

// biome-ignore lint/suspicious/noExplicitAny: as above.
export async function migrateDownAll(db: Kysely<any>, migrationsDir: string): Promise<string[]> {
  const migrator = createMigrator(db, migrationsDir)
  const done: string[] = []
  for (;;) {
    const applied = (await migrator.getMigrations()).filter((m) => m.executedAt)
    if (applied.length === 0) return done
    done.push(...check(await migrator.migrateDown()))
  }
}
