import { defineConfig } from 'vitest/config';

// `npm run test:reliability`: fuzzing, faults, several processes, crash safety, secrets. Meant
// for server mode (DATABASE_URL + REDIS_URL), where CI runs it in under 6 minutes; suites that
// need PostgreSQL or Redis say so and are left out on the embedded engine (see README).
const serverMode = Boolean(process.env.DATABASE_URL);

export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    exclude: serverMode ? [] : ['test/reliability/**/*.server-only.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/reliability/summary.ts'],
    pool: 'forks',
    // One file at a time: the scenarios measure deadlines and start several processes each.
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    teardownTimeout: 30_000,
  },
});
