import { randomBytes } from 'node:crypto'
import { inject } from 'vitest'

/**
 * A name for a database of this run: the run's prefix (global-setup.ts), so the run's end drops it
 * whatever a test file left behind, and no other run touches it; `kind` says what it is for.
 */
export function testDatabaseName(kind?: string): string {
  return `${inject('testDbPrefix')}${kind ? `${kind}_` : ''}${randomBytes(4).toString('hex')}`
}
