// The free tier's watchlist limit (25 companies) holds for the project's watchlists together, and
// the number of watchlists per project is bounded by tier: the total a project watches is bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { ALLOW_PRIVATE_DESTINATIONS: 'true' } });
});
afterAll(() => server?.close());

const pairs = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ orgNumber: String(100_000_000 + from + i), country: 'NO' }));

async function freeProject() {
  const key = (await createKey(server, { limits: { rateLimitPerMinute: 0 } })).raw;
  const d = await http(server.url, 'POST', '/api/destinations', {
    key,
    body: { name: 'd', type: 'webhook', config: { url: 'http://127.0.0.1:9/hook' } },
  });
  expect(d.status).toBe(201);
  const create = (name: string) =>
    http(server.url, 'POST', '/api/watchlists', { key, body: { name, categories: ['name'], destination: 'd' } });
  const add = (name: string, companies: ReturnType<typeof pairs>) =>
    http(server.url, 'POST', `/api/watchlists/${name}/companies`, { key, body: { companies } });
  return { key, create, add };
}

describe('watchlist limits per project', () => {
  it('25 companies in all across a free project’s watchlists; an overflowing call adds nothing', async () => {
    const p = await freeProject();
    for (const n of ['a', 'b', 'c']) expect((await p.create(n)).status).toBe(201);
    expect((await p.add('a', pairs(20))).status).toBe(200);
    const over = await p.add('b', pairs(6, 100));
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('watchlist_full');
    expect(over.body.error).toMatch(/more than 25 companies in all/);
    expect((await http(server.url, 'GET', '/api/watchlists/b', { key: p.key })).body.companyCount).toBe(0);
    // The same company on two watchlists counts twice: each entry is watched.
    expect((await p.add('b', pairs(5))).status).toBe(200);
    expect((await p.add('c', pairs(1, 300))).status).toBe(409);
  });

  it('two calls at once on two watchlists cannot overshoot together', async () => {
    const p = await freeProject();
    await p.create('x');
    await p.create('y');
    const [rx, ry] = await Promise.all([p.add('x', pairs(13)), p.add('y', pairs(13, 500))]);
    expect([rx.status, ry.status].sort()).toEqual([200, 409]);
    const list = (await http(server.url, 'GET', '/api/watchlists', { key: p.key })).body.data as {
      companyCount: number;
    }[];
    expect(list.reduce((n, w) => n + w.companyCount, 0)).toBe(13);
  });

  it('a free project holds at most 5 watchlists', async () => {
    const p = await freeProject();
    for (let i = 0; i < 5; i++) expect((await p.create(`w${i}`)).status).toBe(201);
    const sixth = await p.create('w5');
    expect(sixth.status).toBe(409);
    expect(sixth.body).toMatchObject({ code: 'watchlist_full' });
    expect(sixth.body.error).toMatch(/already has 5 watchlists/);
    expect((await http(server.url, 'GET', '/api/watchlists', { key: p.key })).body.data).toHaveLength(5);
  });
});
