// GET /api/coverage: public, measured from the store by the coverage job, cached for an hour
// (Cache-Control and in process), and the numbers follow a sync once a new snapshot is taken.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { generateInspectionsCsv } from '../../src/sources/mattilsynet/generate.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let dir: string;
const clock = new FakeClock(new Date());
const quiet = () => undefined;

interface Cell {
  country: string;
  category: string;
  records: number;
  companiesWith: number | null;
  share: number | null;
  lastSync: string | null;
  cadence: { job: string; cron: string }[];
  sources: string[];
}

const count = async (q: string) => Number((await server.ctx.store.pool.query(q)).rows[0].n);
const cell = (rows: Cell[], country: string, category: string) =>
  rows.find((r) => r.country === country && r.category === category)!;

/** The figures the table must show for NO, counted here straight from the tables. */
async function expectedNorway() {
  const companies = await count(`SELECT count(*) AS n FROM companies WHERE country = 'NO'`);
  return {
    companies: { records: companies, companiesWith: companies },
    financials: {
      records: await count(
        `SELECT count(*) AS n FROM financials f JOIN companies c ON c.id = f.company_id WHERE c.country = 'NO'`,
      ),
      companiesWith: await count(
        `SELECT count(DISTINCT company_id) AS n FROM financials f JOIN companies c ON c.id = f.company_id WHERE c.country = 'NO'`,
      ),
    },
    roles: {
      records: await count(
        `SELECT count(*) AS n FROM roles r JOIN companies c ON c.id = r.company_id WHERE c.country = 'NO'`,
      ),
      companiesWith: await count(
        `SELECT count(DISTINCT company_id) AS n FROM roles r JOIN companies c ON c.id = r.company_id WHERE c.country = 'NO'`,
      ),
    },
    subUnits: {
      records: await count(`SELECT count(*) AS n FROM sub_units WHERE country = 'NO'`),
      companiesWith: await count(
        `SELECT count(*) AS n FROM companies c WHERE country = 'NO' AND EXISTS (SELECT 1 FROM sub_units s WHERE s.parent_org_number = c.org_number)`,
      ),
    },
    inspections: {
      records: await count(`SELECT count(*) AS n FROM inspections`),
      companiesWith: await count(
        `SELECT count(*) AS n FROM companies c WHERE country = 'NO' AND EXISTS (SELECT 1 FROM inspections i WHERE i.org_number = c.org_number)`,
      ),
    },
    companiesTotal: companies,
  };
}

function expectMatches(rows: Cell[], expected: Awaited<ReturnType<typeof expectedNorway>>) {
  for (const category of ['companies', 'financials', 'roles', 'subUnits', 'inspections'] as const) {
    const c = cell(rows, 'NO', category);
    expect({ category, records: c.records, companiesWith: c.companiesWith }).toEqual({
      category,
      ...expected[category],
    });
    expect(c.share).toBeCloseTo(expected[category].companiesWith / expected.companiesTotal, 4);
  }
}

beforeAll(async () => {
  server = await startServer({ overrides: { clock } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'coverage-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('GET /api/coverage', () => {
  it('answers before the first snapshot without caching that answer', async () => {
    const r = await http(server.url, 'GET', '/api/coverage');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ snapshotAt: null, rows: [] });
    expect(r.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves the snapshot as a country x category table, measured from the store, without a key', async () => {
    await loadGeneratedCompanies(server, 40, 5);
    await runJob(server.ctx, 'coverage', {}, quiet);
    const r = await http(server.url, 'GET', '/api/coverage');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(r.headers.get('ratelimit-limit')).toBeNull();
    expect(r.body.countries).toEqual(['DK', 'FI', 'NO', 'SE']);
    expect(r.body.categories).toEqual([
      'companies',
      'financials',
      'roles',
      'subUnits',
      'shareholders',
      'licenses',
      'inspections',
      'domains',
      'technologies',
      'screeningLists',
      'procurement',
    ]);
    expect(r.body.rows).toHaveLength(44);
    const expected = await expectedNorway();
    expect(expected.companies.records).toBeGreaterThan(30);
    expect(expected.financials.records).toBeGreaterThan(0);
    expectMatches(r.body.rows, expected);
    expect(cell(r.body.rows, 'NO', 'inspections').records).toBe(0);
    expect(cell(r.body.rows, 'FI', 'companies')).toMatchObject({
      records: 0,
      share: null,
      lastSync: null,
      sources: ['prh'],
      cadence: [
        { job: 'prh', cron: '0 3 * * 1' },
        { job: 'prh-updates', cron: '0 4 * * *' },
      ],
    });
    expect(cell(r.body.rows, 'SE', 'shareholders')).toMatchObject({ records: 0, sources: [], cadence: [] });
    // freshness: the brreg file load was a sync of the brreg-snapshot source
    const companies = cell(r.body.rows, 'NO', 'companies');
    expect(companies.sources).toEqual(['brreg-updates', 'brreg-snapshot']);
    expect(companies.cadence).toEqual([
      { job: 'brreg-updates', cron: '*/15 * * * *' },
      { job: 'brreg', cron: '0 3 1 * *' },
    ]);
    expect(new Date(companies.lastSync!).getTime()).toBeGreaterThan(Date.now() - 10 * 60_000);
    expect(cell(r.body.rows, 'NO', 'financials').cadence).toEqual([]); // regnskap runs on demand
  });

  it('keeps the table for an hour, then shows the numbers of the newest snapshot after a sync', async () => {
    const before = (await http(server.url, 'GET', '/api/coverage')).body;
    const venues = Array.from({ length: 60 }, (_, i) => ({
      orgNumber: i % 4 === 3 ? null : orgNumberFor(i),
      name: `Kafé ${i} AS`,
    }));
    const csv = path.join(dir, 'tilsyn.csv');
    await writeFile(csv, await text(generateInspectionsCsv({ venues, seed: 3 })));
    await runJob(server.ctx, 'inspections', { file: csv }, quiet);
    await runJob(server.ctx, 'coverage', {}, quiet);

    clock.advance(30 * 60_000);
    const cached = await http(server.url, 'GET', '/api/coverage');
    expect(cached.body).toEqual(before);
    expect(cached.headers.get('cache-control')).toBe('public, max-age=1800');

    clock.advance(30 * 60_000);
    const fresh = await http(server.url, 'GET', '/api/coverage');
    expect(fresh.body.snapshotAt).not.toBe(before.snapshotAt);
    const expected = await expectedNorway();
    expect(expected.inspections.records).toBeGreaterThan(0);
    expect(expected.inspections.companiesWith).toBeGreaterThan(0);
    expectMatches(fresh.body.rows, expected);
    expect(cell(fresh.body.rows, 'NO', 'inspections').records).not.toBe(cell(before.rows, 'NO', 'inspections').records);
    expect(cell(fresh.body.rows, 'NO', 'inspections').lastSync).not.toBeNull();
  });

  it('is in the OpenAPI document with a summary, a description and an example', async () => {
    const doc = (await http(server.url, 'GET', '/openapi.json')).body;
    const op = doc.paths['/api/coverage'].get;
    expect(op.summary).toMatch(/Coverage/);
    expect(op.description.length).toBeGreaterThan(40);
    expect(op.security ?? []).toEqual([]);
    const media = op.responses['200'].content['application/json'];
    expect(media.schema.properties.rows.items.required).toContain('share');
    expect(media.example.rows.length).toBeGreaterThan(0);
  });
});
