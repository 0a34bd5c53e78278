// GET /api/events is compact JSON, byte for byte what JSON.stringify writes (as the event stream
// and the watchlist alerts send the same events): PostgreSQL's json text has a space around each
// ':' and after each ',' ("seq" : 1, …), inside the changed fields' before/after too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyCore } from '../../src/domain/company.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
const cores: CompanyCore[] = Array.from({ length: 6 }, (_, i) => mapEnhet(generateCompany(i, 531).enhet)).filter(
  (c) => !c.isDeleted,
);

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
  await server.ctx.repos.companyWrites.write(cores.map((core) => ({ core })));
  // A rename with a ", " and ": " in the name: the text inside strings keeps its spaces.
  await server.ctx.repos.companyWrites.write(cores.map((c) => ({ core: { ...c, name: `${c.name}, avd: Oslo` } })));
}, 60_000);
afterAll(() => server?.close());

describe('GET /api/events body', () => {
  it('is compact JSON with the events and their before/after intact', async () => {
    const res = await fetch(`${server.url}/api/events?after=0&limit=100`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    const body = JSON.parse(text);
    const renames = body.data.filter((e: { fieldsChanged: string[] }) => e.fieldsChanged.includes('name'));
    expect(renames.length).toBe(cores.length);
    expect(renames[0].after.name).toMatch(/, avd: Oslo$/);
    expect(text).not.toContain('\n  ');
    expect(text).not.toMatch(/" : |": |, "/);
    expect(text).toBe(JSON.stringify(body));
    expect(Number(res.headers.get('content-length') ?? text.length)).toBe(Buffer.byteLength(text));
  });
});
