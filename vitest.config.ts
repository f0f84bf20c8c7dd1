import { configDefaults, defineConfig } from 'vitest/config'
import { FaultsFirst } from './tests/support/sequencer.ts'

// Fault tests (tests/faults/) spend minutes waiting on a server the test broke, not on the CPU: they form
// a project of their own, which `pnpm test` runs beside the suite (scripts/test.ts); in one run (some
// files asked for) they start first, so their wait hides behind the rest.
const faults = 'tests/faults/**/*.test.ts'

export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker's loaded modules instead of loading the server afresh for each
    // (87 files: 1,013 s → 867 s on the 2-core CI machine). Files keep nothing between them that this
    // could leak: no module mocks, fake timers or environment changes; each builds its own app and
    // database.
    isolate: false,
    // `pnpm test` (scripts/test.ts) runs the fault tests with one worker beside the suite's two.
    maxWorkers: Number(process.env.PORCHLIGHT_TEST_WORKERS) || 2,
    sequence: { sequencer: FaultsFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['tests/**/*.test.ts', 'server/src/**/*.test.ts', 'shared/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, faults],
        },
      },
      {
        extends: true,
        test: { name: 'faults', include: [faults] },
      },
    ],
  },
})
