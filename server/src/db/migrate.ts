import fs from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Kysely } from 'kysely'
import { type Migration, type MigrationProvider, type MigrationResultSet, Migrator } from 'kysely/migration'

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema.
export function createMigrator(db: Kysely<any>, migrationsDir: string): Migrator {
  return new Migrator({
    db,
    provider: new TsFileMigrationProvider(migrationsDir),
  })
}

/**
 * Kysely's FileMigrationProvider imports from inside node_modules, where a loader for .ts files
 * (tsx, vitest) does not reach; importing from here lets the running loader handle migrations.
 */
class TsFileMigrationProvider implements MigrationProvider {
  constructor(private readonly dir: string) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(this.dir)).filter((f) => /^\d{12}-[\w-]+\.ts$/.test(f)).sort()
    const migrations: Record<string, Migration> = {}
    for (const file of files) {
      const mod = (await import(pathToFileURL(path.join(this.dir, file)).href)) as Migration
      migrations[file.replace(/\.ts$/, '')] = { up: mod.up, down: mod.down }
    }
    return migrations
  }
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
