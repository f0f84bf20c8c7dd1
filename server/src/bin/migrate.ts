import { loadConfig } from '../config.ts'
import { createDb } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'

const config = loadConfig()
const handle = await createDb(config.db)
try {
  const applied = await migrateToLatest(handle.db, config.migrationsDir)
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.')
} finally {
  await handle.close()
}
