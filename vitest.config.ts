import { defineConfig } from 'vitest/config';

// DATABASE_URL set: every suite runs against that PostgreSQL server (one fresh database per
// test file, cloned from a migrated template) and REDIS_URL; otherwise on embedded PGlite.
const serverMode = Boolean(process.env.DATABASE_URL);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites that need several processes sharing one PostgreSQL + Redis exist only in server mode.
    // Long suites run with `npm run test:long` (vitest.long.config.ts), reliability suites with
    // `npm run test:reliability` (vitest.reliability.config.ts), browser suites (they need
    // Chromium) with `npm run test:browser` (vitest.browser.config.ts), packaging suites (they need
    // the npm registry) with `npm run test:packaging` (vitest.packaging.config.ts).
    exclude: [
      'test/long/**',
      'test/reliability/**',
      'test/browser/**',
      'test/packaging/**',
      ...(serverMode ? [] : ['test/**/*.server-only.test.ts']),
    ],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Test files share their two worker processes instead of a fresh one each: starting a fork
    // and loading the app's modules again cost some 8 s a file, 13 of the suite's 30 minutes
    // (2026-12-02, 204 files). Safe because no file mocks modules or changes process.env: each
    // starts its own server on its own database (both engines' suites pass so).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
