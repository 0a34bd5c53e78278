import { defineConfig } from 'vitest/config';

// Long suites (large generated files, killed processes): `npm run test:long`, run by CI too.
export default defineConfig({
  test: {
    include: ['test/long/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 900_000,
    hookTimeout: 900_000,
  },
});
