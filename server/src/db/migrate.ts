import fs from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Kysely, sql } from 'kysely'
import { type Migration, type MigrationProvider, type MigrationResultSet, Migrator } from 'kysely/migration'
import { migrationFile } from './migration-files.ts'

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema.
export function createMigrator(db: Kysely<any>, migrationsDir: string): Migrator {
  return new Migrator({
    db,
    provider: new ModuleMigrationProvider(migrationsDir),
  })
}

/**
 * Kysely's FileMigrationProvider imports from inside node_modules, where a loader for .ts files
 * (tsx, vitest) does not reach; importing from here lets the running loader handle migrations.
 * A migration's name is its file name without the extension, so a database migrated from the .ts
 * sources is up to date for the compiled .js ones.
 */
class ModuleMigrationProvider implements MigrationProvider {
  constructor(private readonly dir: string) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(this.dir)).filter((f) => migrationFile.test(f)).sort()
    const migrations: Record<string, Migration> = {}
    for (const file of files) {
      const name = file.replace(migrationFile, '$1')
      if (migrations[name]) throw new Error(`Migration ${name} is in ${this.dir} twice (${file})`)
      const mod = (await import(pathToFileURL(path.join(this.dir, file)).href)) as Migration
      migrations[name] = { up: mod.up, down: mod.down }
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

/**
 * Whether the database has run exactly the migrations in `migrationsDir`, read from Kysely's own table
 * without importing a migration or taking the migrator's lock (a start with nothing to do: ~0.5–1.5 s
 * of imports and lock round trips saved). Anything else — a migration to run, one the files lack, no
 * table yet — is the migrator's to handle (and refuse) as before.
 */
// biome-ignore lint/suspicious/noExplicitAny: as above.
async function upToDate(db: Kysely<any>, migrationsDir: string): Promise<boolean> {
  const files = (await fs.readdir(migrationsDir)).filter((f) => migrationFile.test(f))
  const names = new Set(files.map((f) => f.replace(migrationFile, '$1')))
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db)
    return rows.length === names.size && rows.every((r) => names.has(r.name))
  } catch {
    return false
  }
}

// biome-ignore lint/suspicious/noExplicitAny: as above.
export async function migrateToLatest(db: Kysely<any>, migrationsDir: string): Promise<string[]> {
  if (await upToDate(db, migrationsDir)) return []
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
