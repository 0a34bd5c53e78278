import { defineConfig } from 'vitest/config';

// Browser suites (Playwright driving the system's Chromium, headless): `npm run test:browser`.
// Kept apart from `npm test` because a fresh machine may have no Chromium; CI installs it.
// CHROMIUM_PATH overrides /usr/bin/chromium. Screenshots land in test-artifacts/.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
