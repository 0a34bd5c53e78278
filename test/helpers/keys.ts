// Creates API keys for tests through the real key service (no HTTP registration, so the
// per-IP signup limit stays out of suites that are not about it).
import { randomBytes } from 'node:crypto';
import type { TestServer } from './server.ts';

export async function createKey(
  server: TestServer,
  opts: { tier?: string; limits?: Parameters<TestServer['services']['keys']['setLimits']>[1] } = {},
) {
  const created = await server.services.keys.register({
    projectName: `test-${randomBytes(4).toString('hex')}`,
    email: 'tests@example.com',
  });
  if (opts.tier) await server.services.keys.setTier(created.keyPrefix, opts.tier);
  if (opts.limits) await server.services.keys.setLimits(created.keyPrefix, opts.limits);
  return created;
}
