import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'internal' })).raw;
});
afterAll(() => server?.close());

describe('GET /api/municipalities', () => {
  it('lists the 15 counties of 2024 with their 357 municipalities, sorted by code', async () => {
    const r = await http(server.url, 'GET', '/api/municipalities', { key });
    expect(r.status).toBe(200);
    const codes = r.body.data.map((g: { countyCode: string }) => g.countyCode);
    expect(codes).toEqual(['03', '11', '15', '18', '31', '32', '33', '34', '39', '40', '42', '46', '50', '55', '56']);
    const all = r.body.data.flatMap((g: { municipalities: { code: string }[] }) => g.municipalities);
    expect(all).toHaveLength(357);
    for (const g of r.body.data) {
      const muni = g.municipalities.map((m: { code: string }) => m.code);
      expect(muni).toEqual([...muni].sort());
      for (const m of muni) expect(m.slice(0, 2)).toBe(g.countyCode);
    }
    const vestfold = r.body.data.find((g: { countyCode: string }) => g.countyCode === '39');
    expect(vestfold.countyName).toBe('Vestfold');
    expect(vestfold.municipalities).toContainEqual({ code: '3905', name: 'Tønsberg' });
    const finnmark = r.body.data.find((g: { countyCode: string }) => g.countyCode === '56');
    expect(finnmark.municipalities).toContainEqual({ code: '5610', name: 'Kárášjohka' });
  });

  it('filters by county', async () => {
    const r = await http(server.url, 'GET', '/api/municipalities?county=03', { key });
    expect(r.body).toEqual({
      data: [{ countyCode: '03', countyName: 'Oslo', municipalities: [{ code: '0301', name: 'Oslo' }] }],
    });
    const none = await http(server.url, 'GET', '/api/municipalities?county=99', { key });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: [] });
  });

  it.each(['3', '003', 'ab', '3a', ''])('answers 400 with details for county=%j', async (county) => {
    const r = await http(server.url, 'GET', `/api/municipalities?county=${encodeURIComponent(county)}`, { key });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.details).toEqual([expect.objectContaining({ path: 'query.county' })]);
  });

  it('requires a key', async () => {
    expect((await http(server.url, 'GET', '/api/municipalities')).status).toBe(401);
  });
});
