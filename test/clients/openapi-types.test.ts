// The committed client types (clients/js/src/openapi.ts) must match the OpenAPI document the
// server generates now; when a route schema changes, this fails until `npm run client:generate`.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_TYPES_FILE, renderOpenApiTypes } from '../../clients/js/scripts/render-types.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

/** The first line where the two texts differ, for a readable failure. */
function firstDifference(committed: string, fresh: string): string | undefined {
  if (committed === fresh) return undefined;
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i < 0 ? a.length : i;
  return `clients/js/src/openapi.ts is stale (first difference at line ${at + 1}: committed ${JSON.stringify(a[at])}, generated ${JSON.stringify(b[at])}); run npm run client:generate`;
}

describe('generated client types', () => {
  it('match the OpenAPI document of the current route schemas', async () => {
    const fresh = await renderOpenApiTypes(server.app.swagger());
    expect(fresh).toContain('"/api/companies/enrich"');
    expect(firstDifference(readFileSync(GENERATED_TYPES_FILE, 'utf8'), fresh)).toBeUndefined();
  });
});
