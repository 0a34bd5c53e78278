import { defineConfig } from 'vitest/config';

// Packaging suites (`npm run test:packaging`): `npm pack` of the project and of the client,
// installed into temporary projects outside the checkout. They need the npm registry, so they
// stay out of `npm test` (which needs no network); CI runs them in .ci/packaging.sh.
export default defineConfig({
  test: {
    include: ['test/packaging/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 600_000,
    hookTimeout: 600_000,
    teardownTimeout: 60_000,
  },
});
