// `pnpm migrate` (the .ts migrations) or `node server/dist/migrate.js` (the compiled ones, same names).
// Without DATABASE_URL it migrates the embedded database of `pnpm start`.
import { configOrExit } from '../config.ts'
import { createDb } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'

const config = configOrExit()
const handle = await createDb(config.db)
try {
  const applied = await migrateToLatest(handle.db, config.migrationsDir)
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.')
} finally {
  await handle.close()
}
