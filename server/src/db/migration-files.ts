import fs from 'node:fs'
import path from 'node:path'

/**
 * A migration's file: `<yyyymmddHHMM>-<verb-noun>.ts` in migrations/, the same name as `.js` in the
 * production build (server/build.ts) or as `.mjs` in `pnpm start`'s bundle (server/start-bundle.ts).
 * Its name is the file's without the extension, so a database migrated from one is up to date for the
 * others.
 */
export const migrationFile = /^(\d{12}-[\w-]+)\.(ts|js|mjs)$/

/** The migrations' sources (the .ts files in `dir`), as the builds take them in. */
export function migrationSources(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => migrationFile.test(f) && f.endsWith('.ts'))
    .map((f) => path.join(dir, f))
}
