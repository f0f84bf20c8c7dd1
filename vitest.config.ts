import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'server/src/**/*.test.ts', 'shared/src/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker's loaded modules instead of loading the server afresh for each
    // (87 files: 1,013 s → 867 s on the 2-core CI machine). Files keep nothing between them that this
    // could leak: no module mocks, fake timers or environment changes; each builds its own app and
    // database. Vitest runs one file at a time here (workers default to cores − 1).
    isolate: false,
  },
})
