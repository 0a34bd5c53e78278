// Empty answers say why when the cause is what the server holds: shareholders, holdings and
// ultimate owners with no register year loaded, or not the asked year (the loaded years named);
// procurement with no source
// loaded for the country; screening with no list loaded. An answer with rows, or an empty one on
// loaded data, carries no note.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import '../../src/jobs/shareholders.ts';
import { byCompany, company, org, writeRegister, removeRegisters } from '../fixtures/aksjonaer/build.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
const [ACME, HOLD, OTHER] = [org(300), org(301), org(302)];
const get = (path: string) => http(server.url, 'GET', path, { key });

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
  await server.ctx.repos.companyWrites.write([
    company(ACME, 'ACME AS', { employees: 4 }),
    company(HOLD, 'HOLDING AS', { employees: 1 }),
    company(OTHER, 'ANNEN AS', { employees: 1 }),
  ]);
});
afterAll(async () => {
  await server?.close();
  removeRegisters();
});

describe('before any register year is loaded', () => {
  it('shareholders and holdings answer empty, saying no year is loaded', async () => {
    const holders = await get(`/api/companies/${ACME}/shareholders`);
    expect(holders.status).toBe(200);
    expect(holders.body).toMatchObject({ data: [], availableYears: [] });
    expect(holders.body.note).toMatch(/No Aksjonærregisteret year is loaded/);
    const holdings = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${HOLD}`);
    expect(holdings.status).toBe(200);
    expect(holdings.body.data).toEqual([]);
    expect(holdings.body.note).toMatch(/No Aksjonærregisteret year is loaded/);
  });

  it('ultimate owners say no year is loaded', async () => {
    const r = await get(`/api/companies/${ACME}/owners`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ candidates: [], year: null });
    expect(r.body.message).toMatch(/No Aksjonærregisteret year is loaded/);
  });

  it('procurement answers empty, naming the source that is not loaded for the country', async () => {
    const se = await get('/api/procurement?country=SE');
    expect(se.status).toBe(200);
    expect(se.body).toMatchObject({ data: [], hasMore: false });
    expect(se.body.note).toMatch(/No procurement source with SE notices \(TED\)/);
    const all = await get('/api/procurement');
    expect(all.body.note).toMatch(/\(Doffin or TED\)/);
  });

  it('screening says no list is loaded', async () => {
    const r = await get(`/api/screening/${ACME}`);
    expect(r.status).toBe(200);
    expect(r.body.lists).toEqual([]);
    expect(r.body.message).toMatch(/No sanctions or PEP list is loaded/);
  });
});

describe('with register year 2024 loaded', () => {
  beforeAll(async () => {
    await runJob(
      server.ctx,
      'shareholders',
      { file: writeRegister('aksjeeierbok_2024.csv', [byCompany(ACME, 'ACME AS', HOLD, 'HOLDING AS', 60, 100)]) },
      () => undefined,
    );
  });

  it('an asked year that is not loaded is named with the loaded years', async () => {
    const r = await get(`/api/companies/${ACME}/shareholders?year=2019`);
    expect(r.body).toMatchObject({ data: [], availableYears: [2024] });
    expect(r.body.note).toBe('Register year 2019 is not loaded on this server; loaded years: 2024');
    const h = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${HOLD}&year=2019`);
    expect(h.body.note).toBe('Register year 2019 is not loaded on this server; loaded years: 2024');
  });

  it('ultimate owners name the loaded years for a year that is not loaded', async () => {
    const r = await get(`/api/companies/${ACME}/owners?year=2019`);
    expect(r.body.message).toBe('Register year 2019 is not loaded on this server; loaded years: 2024');
    const found = await get(`/api/companies/${ACME}/owners`);
    expect(found.body.year).toBe(2024);
    expect(found.body).not.toHaveProperty('message');
  });

  it('rows, or an empty answer on a loaded year, carry no note', async () => {
    const r = await get(`/api/companies/${ACME}/shareholders`);
    expect(r.body.data).toHaveLength(1);
    expect(r.body).not.toHaveProperty('note');
    const none = await get(`/api/companies/${OTHER}/shareholders?year=2024`);
    expect(none.body.data).toEqual([]);
    expect(none.body).not.toHaveProperty('note');
    const h = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${HOLD}`);
    expect(h.body.data).toHaveLength(1);
    expect(h.body).not.toHaveProperty('note');
  });
});
