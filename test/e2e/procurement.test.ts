// GET /api/procurement and /api/procurement/{noticeId} on notices loaded through `ncd sync
// procurement` (the recorded fixtures and a generated set): every filter checked against the full
// list, every sort in both orders, every 400, the tier cap and cursor-depth limit, one notice by
// each of its ids, the company-record fields, an award raising the winner's awardedContracts, and
// the MCP tool search_procurement.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { procurementDataset, writeDataset } from '../fakes/procurement/dataset.ts';
import { noticeXml } from '../fakes/procurement/notices.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { walkPages } from '../helpers/pages.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { writeFile } from 'node:fs/promises';

type Notice = Record<string, any>;

const NOW = new Date('2026-11-20T12:00:00Z');
const clock = new FakeClock(NOW);
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/procurement');

let server: TestServer;
let dir: string;
let key: string;
let all: Notice[];
let buyers: string[];
let winners: string[];

const get = (p: string, k = key) => http(server.url, 'GET', p, { key: k });
const load = (file: string) => runJob(server.ctx, 'procurement', { file }, () => undefined);
const freshKey = async () => (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
const list = (query: string) => walkPages<Notice>(server.url, '/api/procurement', `${query}&limit=100`, key);
const ids = (rows: Notice[]) => rows.map((r) => r.noticeId).sort();

beforeAll(async () => {
  server = await startServer({ overrides: { clock } });
  await loadGeneratedCompanies(server, 40, 24);
  const orgs = (
    await server.ctx.store.pool.query(`SELECT org_number FROM companies WHERE country = 'NO' ORDER BY org_number`)
  ).rows.map((r: { org_number: string }) => r.org_number);
  buyers = orgs.slice(0, 8);
  winners = orgs.slice(8, 20);
  dir = await mkdtemp(path.join(os.tmpdir(), 'ncd-procurement-api-'));
  await writeDataset(dir, procurementDataset(60, buyers, winners, new Date('2026-08-15T08:00:00Z')));
  await load(dir);
  await load(path.join(FIXTURES, 'doffin'));
  await load(path.join(FIXTURES, 'ted'));
  key = await freshKey();
  all = await list('sort=publishedAt');
}, 240_000);
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('GET /api/procurement filters', () => {
  it('lists every notice once, newest first by default, with derived statuses of each kind', async () => {
    // 60 competitions, 15 results, 3 cancellations, and the 6 fixtures of which one is a duplicate.
    expect(all.length).toBe(60 + 15 + 3 + 5);
    expect(new Set(all.map((n) => n.noticeId)).size).toBe(all.length);
    expect(ids(await list(''))).toEqual(ids(all));
    const statuses = new Set(all.map((n) => n.status));
    expect([...statuses].sort()).toEqual(['ACTIVE', 'AWARDED', 'CANCELLED', 'CLOSED']);
    for (const n of all) {
      if (n.noticeType !== 'competition') continue;
      const siblings = all.filter((s) => s.procedureId === n.procedureId);
      const expected = siblings.some((s) => s.noticeType === 'cancellation')
        ? 'CANCELLED'
        : siblings.some((s) => s.noticeType === 'result' && s.winners.length)
          ? 'AWARDED'
          : n.deadline && new Date(n.deadline) > NOW
            ? 'ACTIVE'
            : 'CLOSED';
      expect(n.status, n.noticeId).toBe(expected);
    }
  });

  it('filters by orgNumber as buyer, as winner, or either', async () => {
    const org = winners[1];
    const asWinner = all.filter((n) => n.winners.some((w: Notice) => w.orgNumber === org));
    expect(asWinner.length).toBeGreaterThan(0);
    expect(ids(await list(`orgNumber=${org}&role=winner`))).toEqual(ids(asWinner));
    const buyer = buyers[2];
    const asBuyer = all.filter((n) => n.orgNumber === buyer);
    expect(asBuyer.length).toBeGreaterThan(0);
    expect(ids(await list(`orgNumber=${buyer}&role=buyer`))).toEqual(ids(asBuyer));
    expect(ids(await list(`orgNumber=${buyer}`))).toEqual(
      ids(all.filter((n) => n.orgNumber === buyer || n.winners.some((w: Notice) => w.orgNumber === buyer))),
    );
    expect(await list(`orgNumber=${buyer}&role=winner`)).toEqual([]);
  });

  it('filters by each status', async () => {
    for (const status of ['ACTIVE', 'CLOSED', 'AWARDED', 'CANCELLED']) {
      const want = all.filter((n) => n.status === status);
      expect(want.length, status).toBeGreaterThan(0);
      expect(ids(await list(`status=${status}`)), status).toEqual(ids(want));
    }
  });

  it('filters by a CPV code or prefix', async () => {
    for (const cpv of ['90911200', '909', '72', '3314']) {
      const want = all.filter((n) => n.cpvCodes.some((c: string) => c.startsWith(cpv)));
      expect(want.length, cpv).toBeGreaterThan(0);
      expect(ids(await list(`cpv=${cpv}`)), cpv).toEqual(ids(want));
    }
  });

  it('filters by deadlineAfter and publishedAfter (dates and instants)', async () => {
    for (const at of ['2026-11-20', '2026-10-01T00:00:00Z', '2026-12-15T11:00:00.000Z']) {
      const t = new Date(at.length === 10 ? `${at}T00:00:00Z` : at).getTime();
      const byDeadline = all.filter((n) => n.deadline && new Date(n.deadline).getTime() > t);
      expect(ids(await list(`deadlineAfter=${encodeURIComponent(at)}`)), at).toEqual(ids(byDeadline));
      const byPublished = all.filter((n) => n.publishedDate && new Date(n.publishedDate).getTime() > t);
      expect(ids(await list(`publishedAfter=${encodeURIComponent(at)}`)), at).toEqual(ids(byPublished));
    }
  });

  it('filters by title words, case-insensitive for Nordic letters', async () => {
    for (const q of ['RENHOLD', 'øst', 'Brukerstøtte', 'skolebygg']) {
      const want = all.filter((n) => n.title.toLowerCase().includes(q.toLowerCase()));
      expect(want.length, q).toBeGreaterThan(0);
      expect(ids(await list(`q=${encodeURIComponent(q)}`)), q).toEqual(ids(want));
    }
  });

  it("filters by the buyer's country", async () => {
    for (const country of ['NO', 'SE', 'DK']) {
      const want = all.filter((n) => n.country === country);
      expect(want.length, country).toBeGreaterThan(0);
      expect(ids(await list(`country=${country}`))).toEqual(ids(want));
    }
    expect(await list('country=FI')).toEqual([]);
  });

  it('combines filters (Orakel: status ACTIVE, deadlineAfter, CPV)', async () => {
    const want = all.filter(
      (n) =>
        n.status === 'ACTIVE' &&
        new Date(n.deadline).getTime() > new Date('2026-12-01T00:00:00Z').getTime() &&
        n.cpvCodes.some((c: string) => c.startsWith('90')),
    );
    expect(want.length).toBeGreaterThan(0);
    expect(ids(await list('status=ACTIVE&deadlineAfter=2026-12-01&cpv=90'))).toEqual(ids(want));
  });
});

describe('GET /api/procurement sorts and pages', () => {
  const keyOf: Record<string, (n: Notice) => number> = {
    publishedAt: (n) => (n.publishedDate ? new Date(n.publishedDate).getTime() : -Infinity),
    deadline: (n) => (n.deadline ? new Date(n.deadline).getTime() : -Infinity),
    value: (n) => n.estimatedValue ?? n.awardedValue ?? -1,
  };

  it('sorts by publishedAt, deadline and value in both orders, in pages of any size', async () => {
    for (const sort of Object.keys(keyOf)) {
      for (const order of ['asc', 'desc']) {
        const rows = await walkPages<Notice>(
          server.url,
          '/api/procurement',
          `sort=${sort}&order=${order}&limit=7`,
          await freshKey(),
        );
        expect(rows.length).toBe(all.length);
        const values = rows.map(keyOf[sort]);
        const sorted = [...values].sort((a, b) => (order === 'asc' ? a - b : b - a));
        expect(values, `${sort} ${order}`).toEqual(sorted);
      }
    }
  });

  it('caps limit at the tier page size', async () => {
    const free = (await createKey(server)).raw;
    const r = await get('/api/procurement?status=CLOSED&limit=100', free);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(20);
    expect(r.body.hasMore).toBe(true);
  });

  it('allows 50 consecutive cursor follows per key in 5 minutes; the 51st gets 429', async () => {
    const k = await freshKey();
    let cursor: string = (await get('/api/procurement?limit=1', k)).body.nextCursor;
    for (let i = 1; i <= 50; i++) {
      const r = await get(`/api/procurement?limit=1&cursor=${encodeURIComponent(cursor)}`, k);
      expect(r.status, `follow ${i}`).toBe(200);
      cursor = r.body.nextCursor;
    }
    const r = await get(`/api/procurement?limit=1&cursor=${encodeURIComponent(cursor)}`, k);
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('cursor_depth_exceeded');
  });
});

describe('GET /api/procurement bad input', () => {
  it.each([
    ['orgNumber=974760674', 'query.orgNumber'],
    ['role=buyer', 'query.role'],
    ['orgNumber=974760673&role=owner', 'query.role'],
    ['status=OPEN', 'query.status'],
    ['cpv=9', 'query.cpv'],
    ['cpv=90x', 'query.cpv'],
    ['deadlineAfter=tomorrow', 'query.deadlineAfter'],
    ['deadlineAfter=2026-13-45', 'query.deadlineAfter'],
    ['publishedAfter=20261101', 'query.publishedAfter'],
    ['q=a', 'query.q'],
    ['country=XX', 'query.country'],
    ['sort=title', 'query.sort'],
    ['order=up', 'query.order'],
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
  ])('%s is a 400 naming %s', async (query, field) => {
    const r = await get(`/api/procurement?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('refuses a cursor that is not ours or belongs to another query', async () => {
    const r = await get('/api/procurement?cursor=not-a-cursor');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_cursor');
    const cursor = (await get('/api/procurement?status=CLOSED&limit=2')).body.nextCursor;
    const other = await get(`/api/procurement?status=ACTIVE&limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('cursor_query_mismatch');
  });
});

describe('GET /api/procurement/{noticeId}', () => {
  it('answers one notice by its Doffin id, TED number or eForms id, with every field', async () => {
    const byDoffin = await get('/api/procurement/2026-107304');
    expect(byDoffin.status).toBe(200);
    expect(byDoffin.body).toMatchObject({
      noticeId: '2026-107304',
      doffinId: '2026-107304',
      tedId: '712345-2026',
      eformsId: '3f1c9a52-6d0e-4b7a-9a7e-1c2d3e4f5a60',
      noticeType: 'competition',
      status: 'AWARDED',
      title: 'Rammeavtale for renhold av skolebygg',
      orgNumber: '974760673',
      contractingAuthority: 'Oslo kommune v/ Utdanningsetaten',
      country: 'NO',
      cpvCodes: ['90911200', '90919200'],
      procedureType: 'open',
      publishedDate: '2026-11-02T08:15:00.000Z',
      deadline: '2026-12-15T11:00:00.000Z',
      estimatedValue: 12500000,
      currency: 'NOK',
      placeOfPerformance: ['NO081'],
      url: 'https://www.doffin.no/notices/2026-107304',
      sources: ['doffin', 'ted'],
    });
    expect(byDoffin.body.lots).toHaveLength(2);
    expect((await get('/api/procurement/712345-2026')).body).toEqual(byDoffin.body);
    expect((await get('/api/procurement/3f1c9a52-6d0e-4b7a-9a7e-1c2d3e4f5a60')).body).toEqual(byDoffin.body);
    const ted = await get('/api/procurement/745678-2026');
    expect(ted.body).toMatchObject({ url: 'https://ted.europa.eu/en/notice/-/detail/745678-2026', sources: ['ted'] });
    expect(ted.body.winners.map((w: Notice) => [w.orgNumber, w.value])).toEqual([
      ['935411718', 51800000],
      [null, 34600000],
    ]);
  });

  it('answers 404 for an unknown notice and 400 for a malformed id', async () => {
    const missing = await get('/api/procurement/2026-000001');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('notice_not_found');
    const bad = await get('/api/procurement/x');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
  });
});

describe('procurement on company records', () => {
  it("counts a buyer's open tenders and links its latest tender", async () => {
    const buyer = buyers[3];
    const mine = all.filter((n) => n.orgNumber === buyer && n.noticeType === 'competition');
    const r = await get(`/api/companies/${buyer}`);
    expect(r.status).toBe(200);
    expect(r.body.activeTenders).toBe(mine.filter((n) => n.status === 'ACTIVE').length);
    const latest = mine.sort((a, b) => b.publishedDate.localeCompare(a.publishedDate))[0];
    expect(r.body.latestTenderUrl).toBe(latest.url);
  });

  it("an award moves its tender to AWARDED and raises the winner's awardedContracts", async () => {
    const tender = all.find((n) => n.status === 'ACTIVE' && n.orgNumber !== null)!;
    const winner = winners[11];
    const before = await get(`/api/companies/${winner}`);
    expect(before.status).toBe(200);
    const count = before.body.awardedContracts.count;

    const file = path.join(dir, '2026-600001.xml');
    await writeFile(
      file,
      noticeXml({
        eformsId: 'bb000000-0000-4000-8000-000000000001',
        procedureId: tender.procedureId,
        kind: 'result',
        title: tender.title,
        buyerOrg: tender.orgNumber,
        cpv: tender.cpvCodes,
        issuedAt: '2026-11-20T10:00:00Z',
        winners: [{ org: winner, name: 'Vinner', value: 987654 }],
      }),
    );
    await load(file);

    expect((await get(`/api/procurement/${tender.noticeId}`)).body.status).toBe('AWARDED');
    const after = await get(`/api/companies/${winner}`);
    expect(after.body.awardedContracts).toEqual({
      count: count + 1,
      latest: {
        noticeId: '2026-600001',
        title: tender.title,
        value: 987654,
        currency: 'NOK',
        publishedDate: '2026-11-20T10:00:00.000Z',
        url: 'https://www.doffin.no/notices/2026-600001',
      },
    });
    const enriched = await http(server.url, 'POST', '/api/companies/enrich', {
      key,
      body: { orgNumbers: [winner] },
    });
    expect(enriched.status).toBe(200);
    expect(enriched.body.data[0].awardedContracts.count).toBe(count + 1);
  });
});

describe('MCP search_procurement', () => {
  it("answers Orakel's call (status ACTIVE, deadlineAfter, CPV) as the REST list does", async () => {
    const client = new Client({ name: 'procurement-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const args = { status: 'ACTIVE', deadlineAfter: '2026-12-01', cpv: '90', limit: 100 };
      const r = (await client.callTool({ name: 'search_procurement', arguments: args })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      const page = r.structuredContent as { data: Notice[] };
      const rest = await get('/api/procurement?status=ACTIVE&deadlineAfter=2026-12-01&cpv=90&limit=100');
      expect(page.data.map((n) => n.noticeId)).toEqual(rest.body.data.map((n: Notice) => n.noticeId));
      expect(page.data.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
