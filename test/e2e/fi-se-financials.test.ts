// Finnish and Swedish filed accounts through the API: the companies are loaded by the bulk syncs
// (fake PRH download and Bolagsverket bulk file), then `prh-financials` walks a fake of PRH's open
// XBRL API and `bolagsverket-financials` a fake of Bolagsverket's high-value-datasets API (with its
// OAuth2 token exchange). Served by lookup, enrich, search (minRevenue in the country's currency)
// and MCP get_financials; a crash mid-run resumes without refetching, a 429 is waited out, a second
// run fetches nothing, bad documents are skipped with reasons in health, a corrected filing
// appends an accounts event, and without credentials the Swedish job is not scheduled.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bolagsverketFinancialsJob } from '../../src/jobs/bolagsverket-financials.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { startFakeBolagsverket, type FakeBolagsverket } from '../fakes/bolagsverket-hvd.ts';
import { startFakePrh, zipOf, type FakePrh } from '../fakes/prh/server.ts';
import { startFakePrhXbrl, type FakePrhXbrl } from '../fakes/prh-xbrl.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const fixture = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');
const SECRET = 'fi-se-financials-sync-secret';
const BULK_PATH = '/bolagsverket/bolagsverket_bulkfil.zip';

const FI = { A: '3470101-6', B: '3470102-4', C: '3470103-2', D: '3470104-0' };
const FI_UNKNOWN = '1234567-1';
const SE = { A: '5560047010', B: '5560047028', C: '5560047036', D: '5560047044' };

/** A PRH v3 company object: the Wolt record of the fixture with another business ID and name. */
function finnish(businessId: string, name: string) {
  const wolt = JSON.parse(fixture('prh/prh-ytj-v3-company-wolt-thirdparty-fixture.json')).companies[0];
  return { ...wolt, businessId: { ...wolt.businessId, value: businessId }, names: [{ ...wolt.names[0], name }] };
}
/** A bulk-file row of an aktiebolag, in the format of the quirks fixture's first row. */
const swedish = (org: string, name: string) =>
  `"${org}$ORGNR-IDORG";"";"SE-LAND";"${name}$FORETAGSNAMN-ORGNAM$2001-02-03";"AB-ORGFO";"";"";"";"2001-02-03";"Verksamhet.";"Storgatan 1$$GÖTEBORG$411 01$SE-LAND"`;
const bulkFile = () =>
  [
    fixture('bolagsverket/bulkfil-quirks.txt').split('\n')[0],
    swedish(SE.A, 'Fjällbacka Konsult AB'),
    swedish(SE.B, 'Vänerns Trävaror AB'),
    swedish(SE.C, 'Norrlandsgruppen AB'),
    swedish(SE.D, 'Testbolaget Norr AB'),
  ].join('\n') + '\n';

const pkg = (files: Record<string, string>) => zipMany(files);
async function zipMany(files: Record<string, string | Buffer>): Promise<Buffer> {
  const yazl = (await import('yazl')).default;
  const z = new yazl.ZipFile();
  for (const [n, d] of Object.entries(files)) z.addBuffer(Buffer.isBuffer(d) ? d : Buffer.from(d), n);
  z.end();
  const chunks: Buffer[] = [];
  for await (const c of z.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

let upstream: FakePrh;
let prhx: FakePrhXbrl;
let bv: FakeBolagsverket;
let server: TestServer;
let key: string;

beforeAll(async () => {
  upstream = await startFakePrh();
  upstream.companies = [
    finnish(FI.A, 'Revontuli Konepaja Oy'),
    finnish(FI.B, 'Kuusamon Ohjelmistot Oy'),
    finnish(FI.C, 'Saimaan Satamapalvelut Oy'),
    finnish(FI.D, 'Pohjoisen Testi Oy'),
  ];
  upstream.files.set(BULK_PATH, {
    body: await zipOf('bolagsverket_bulkfil.txt', bulkFile()),
    contentType: 'application/zip',
  });

  prhx = await startFakePrhXbrl();
  prhx.filings = [
    {
      businessId: FI.A,
      financialDate: '2024-12-31',
      registrationDate: '2025-03-10',
      xml: fixture('prh-xbrl/3470101-6_2024-12-31.xml'),
    },
    {
      businessId: FI.B,
      financialDate: '2024-06-30',
      registrationDate: '2024-10-15',
      xml: fixture('prh-xbrl/3470102-4_2024-06-30.xml'),
    },
    {
      businessId: FI.C,
      financialDate: '2024-12-31',
      registrationDate: '2025-04-01',
      xml: fixture('prh-xbrl/3470103-2_2024-12-31.xml'),
    },
    {
      businessId: FI.D,
      financialDate: '2024-12-31',
      registrationDate: '2025-02-02',
      xml: fixture('prh-xbrl/bad-unknown-taxonomy.xml'),
    },
    {
      businessId: FI.D,
      financialDate: '2023-12-31',
      registrationDate: '2024-02-02',
      xml: fixture('prh-xbrl/bad-figure.xml'),
    },
    {
      businessId: FI.D,
      financialDate: '2022-12-31',
      registrationDate: '2023-09-02',
      xml: fixture('prh-xbrl/bad-truncated.xml'),
    },
    // A company the store does not hold: listed, never fetched.
    {
      businessId: FI_UNKNOWN,
      financialDate: '2024-12-31',
      registrationDate: '2025-01-20',
      xml: fixture('prh-xbrl/3470101-6_2024-12-31.xml'),
    },
  ];

  bv = await startFakeBolagsverket();
  const doc = async (id: string, periodTo: string, files: Record<string, string>) => ({
    dokumentId: id,
    periodTo,
    registeredAt: '2025-03-01T10:00:00',
    zip: await pkg(files),
  });
  bv.organisations.set(SE.A, {
    reklamsparr: 'JA',
    documents: [
      await doc('A-2024_paket', '2024-12-31', {
        'a1.xhtml': fixture('bolagsverket/5560047010_2024-12-31.xhtml'),
        'revisionsberattelse.xhtml': fixture('bolagsverket/revisionsberattelse.xhtml'),
      }),
    ],
  });
  bv.organisations.set(SE.B, {
    reklamsparr: 'NEJ',
    documents: [
      await doc('B-2024_paket', '2024-08-31', { 'b1.xhtml': fixture('bolagsverket/5560047028_2024-08-31.xhtml') }),
    ],
  });
  bv.organisations.set(SE.C, {
    reklamsparr: null,
    documents: [
      await doc('C-2024-moder_paket', '2024-12-31', {
        'c1.xhtml': fixture('bolagsverket/5560047036_2024-12-31_moderbolag.xhtml'),
      }),
      await doc('C-2024-koncern_paket', '2024-12-31', {
        'c2.xhtml': fixture('bolagsverket/5560047036_2024-12-31_koncern.xhtml'),
      }),
    ],
  });
  bv.organisations.set(SE.D, {
    reklamsparr: 'NEJ',
    documents: [
      await doc('D-trunc_paket', '2022-12-31', { 'd1.xhtml': fixture('bolagsverket/bad-truncated.xhtml') }),
      await doc('D-tax_paket', '2024-12-31', { 'd2.xhtml': fixture('bolagsverket/bad-unknown-taxonomy.xhtml') }),
      await doc('D-fig_paket', '2023-12-31', { 'd3.xhtml': fixture('bolagsverket/bad-figure.xhtml') }),
      await doc('D-empty_paket', '2021-12-31', { 'readme.txt': 'Årsredovisningen saknas' }),
    ],
  });

  server = await startServer({
    env: {
      PRH_BASE_URL: upstream.baseUrl,
      BOLAGSVERKET_BULK_URL: `${upstream.url}${BULK_PATH}`,
      SYNC_SECRET: SECRET,
      ...prhx.env,
      ...bv.env,
    },
  });
  key = (await createKey(server, { tier: 'internal' })).raw;
  expect((await runJob(server.ctx, 'prh', {}, () => undefined)).status).toBe('ok');
  expect((await runJob(server.ctx, 'bolagsverket', {}, () => undefined)).status).toBe('ok');
}, 120_000);
afterAll(async () => {
  await server?.close();
  await Promise.all([upstream?.close(), prhx?.close(), bv?.close()]);
});

const get = (p: string) => http(server.url, 'GET', p, { key });
const health = async () =>
  (await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SECRET } })).body.dataSources;
const run = (job: string, opts = {}) => runJob(server.ctx, job, opts, () => undefined);

describe('prh-financials', () => {
  it('a run that dies mid-way resumes without refetching; a 429 is waited out; a second run fetches nothing', async () => {
    prhx.failDocumentsFrom = 3; // the third document answers 500: the run fails there
    await expect(run('prh-financials')).rejects.toThrow(/financial answered 500/);
    const before = prhx.documentsFetched;
    expect(before).toHaveLength(2);

    prhx.failDocumentsFrom = null;
    prhx.rateLimitNext = 1; // the first request of the resumed run answers 429, Retry-After: 1
    const resumed = await run('prh-financials');
    expect(resumed.status).toBe('ok');
    expect(resumed.details).toMatchObject({ waited429: 1, complete: true });
    const fetched = prhx.documentsFetched;
    // Every listed document of a stored company was fetched exactly once over both runs.
    expect(fetched.slice().sort()).toEqual(
      [
        `${FI.A}:2024-12-31`,
        `${FI.B}:2024-06-30`,
        `${FI.C}:2024-12-31`,
        `${FI.D}:2024-12-31`,
        `${FI.D}:2023-12-31`,
        `${FI.D}:2022-12-31`,
      ].sort(),
    );
    expect(fetched.some((f) => f.startsWith(FI_UNKNOWN))).toBe(false);
    const stored = await server.ctx.store.db
      .selectFrom('financial_filings')
      .select(['status'])
      .where('source', '=', 'prh-financials')
      .execute();
    expect(stored.map((r) => r.status).sort()).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'stored',
      'stored',
      'stored',
      'unknown',
    ]);

    const again = await run('prh-financials');
    expect(again.status).toBe('ok');
    expect(again.details).toMatchObject({ fetched: 0, stored: 0, skipped: 0 });
    expect(prhx.documentsFetched).toHaveLength(fetched.length);
    // It listed from the day of the last complete run only.
    expect(prhx.requests.at(-1)!.query.registeredDateStart).toBe(new Date().toISOString().slice(0, 10));
  });

  it('lookup serves the filed accounts field for field with ratios, in EUR, from PRH', async () => {
    const a = await get(`/api/companies/${FI.A}?country=FI`);
    expect(a.status).toBe(200);
    expect(a.body.financials).toEqual([
      expect.objectContaining({
        regnskapstype: 'SELSKAP',
        periodFrom: '2024-01-01',
        periodTo: '2024-12-31',
        currency: 'EUR',
        revenue: 1250400,
        operatingProfit: 98750,
        operatingResult: 98750,
        netResult: 71200,
        equity: 412900,
        totalAssets: 860300,
        totalLiabilities: 447400,
        averageEmployees: null,
        profitMargin: 5.69,
        operatingMargin: 7.9,
        returnOnEquity: 17.24,
        equityRatio: 47.99,
      }),
    ]);
    expect(a.body._sources.fields.financials).toBe('PRH (XBRL financial statements)');
    const b = (await get(`/api/companies/${FI.B}?country=FI`)).body.financials[0];
    expect(b).toMatchObject({
      periodFrom: '2023-07-01',
      periodTo: '2024-06-30',
      netResult: -151320,
      operatingProfit: -142800,
      equity: -38900,
    });
    expect(b.returnOnEquity).toBeNull(); // negative equity
    expect((await get(`/api/companies/${FI.C}?country=FI`)).body.financials[0]).toMatchObject({
      revenue: 48312000,
      netResult: 2874000,
    });
    // The company with only bad documents keeps its record, without accounts.
    expect((await get(`/api/companies/${FI.D}?country=FI`)).body.financials).toEqual([]);
  });
});

describe('bolagsverket-financials', () => {
  it('exchanges its client credentials for a token, dies mid-way and resumes, waits out a 429, then fetches nothing', async () => {
    bv.failDocumentsFrom = 3;
    await expect(run('bolagsverket-financials')).rejects.toThrow(/dokument answered 500/);
    expect(bv.tokensIssued).toBe(1);
    const first = bv.documentsFetched;
    expect(first).toHaveLength(2);

    bv.failDocumentsFrom = null;
    bv.expireTokens(); // the crashed run's token is dead: the resumed run exchanges the credentials again
    bv.rateLimitNext = 1;
    const resumed = await run('bolagsverket-financials');
    expect(resumed.status).toBe('ok');
    // The crashed run had stored A's and B's reports; the resumed one stores C's two and skips D's four.
    expect(resumed.details).toMatchObject({ waited429: 1, passes: 1, stored: 2, skipped: 4 });
    expect(bv.documentsFetched.slice().sort()).toEqual(
      [
        'A-2024_paket',
        'B-2024_paket',
        'C-2024-moder_paket',
        'C-2024-koncern_paket',
        'D-trunc_paket',
        'D-tax_paket',
        'D-fig_paket',
        'D-empty_paket',
      ].sort(),
    );
    // Each run exchanged the client credentials once; every API request carried a token the fake
    // issued (it answers 401 otherwise).
    expect(bv.tokensIssued).toBe(2);
    expect(bv.requests.filter((r) => r.status === 401)).toHaveLength(0);

    const again = await run('bolagsverket-financials');
    expect(again.status).toBe('ok');
    expect(again.details).toMatchObject({ fetched: 0, stored: 0 });
    expect(bv.documentsFetched).toHaveLength(8);
  });

  it('lookup serves the reports field for field in SEK: a loss, a report in thousands, group accounts apart', async () => {
    const a = (await get(`/api/companies/${SE.A}?country=SE`)).body;
    expect(a.financials).toEqual([
      expect.objectContaining({
        regnskapstype: 'SELSKAP',
        periodFrom: '2024-01-01',
        periodTo: '2024-12-31',
        currency: 'SEK',
        revenue: 2924586,
        operatingProfit: -8912,
        netResult: -10536,
        equity: 508409,
        totalAssets: 515409,
        totalLiabilities: 7000,
        averageEmployees: 2,
        profitMargin: -0.36,
        equityRatio: 98.64,
      }),
    ]);
    expect(a._sources.fields.financials).toBe('Bolagsverket (iXBRL annual reports)');
    expect((await get(`/api/companies/${SE.B}?country=SE`)).body.financials[0]).toMatchObject({
      revenue: 12480000,
      netResult: 955000,
      totalLiabilities: 4235500,
      averageEmployees: 14,
    });
    const c = (await get(`/api/companies/${SE.C}?country=SE`)).body.financials;
    expect(c.map((f: { regnskapstype: string; revenue: number }) => [f.regnskapstype, f.revenue]).sort()).toEqual([
      ['KONSERN', 212730000],
      ['SELSKAP', 84512000],
    ]);
  });

  it("stores Bolagsverket's reklamspärr on the company (null when the record does not say)", async () => {
    const rows = await server.ctx.store.db
      .selectFrom('companies')
      .select(['org_number', 'marketing_protected'])
      .where('country', '=', 'SE')
      .where('org_number', 'in', Object.values(SE))
      .orderBy('org_number')
      .execute();
    expect(rows.map((r) => [r.org_number, r.marketing_protected])).toEqual([
      [SE.A, true],
      [SE.B, false],
      [SE.C, null],
      [SE.D, false],
    ]);
  });
});

describe('both countries through the API', () => {
  it('enrich returns FI and SE companies with their financials and ratios', async () => {
    const r = await http(server.url, 'POST', '/api/companies/enrich', {
      key,
      body: {
        pairs: [
          { orgNumber: FI.A, country: 'FI' },
          { orgNumber: SE.B, country: 'SE' },
        ],
      },
    });
    expect(r.status).toBe(200);
    const by = Object.fromEntries(r.body.data.map((c: { orgNumber: string }) => [c.orgNumber, c]));
    expect(by[FI.A].financials[0]).toMatchObject({ currency: 'EUR', revenue: 1250400, profitMargin: 5.69 });
    expect(by[SE.B].financials[0]).toMatchObject({ currency: 'SEK', revenue: 12480000, profitMargin: 7.65 });
  });

  it("minRevenue and maxRevenue compare in the country's currency", async () => {
    const ids = async (q: string) =>
      ((await get(`/api/companies?${q}&limit=50`)).body.data as { orgNumber: string }[]).map((c) => c.orgNumber).sort();
    expect(await ids('country=FI&minRevenue=1000000')).toEqual([FI.A, FI.C].sort());
    expect(await ids('country=FI&maxRevenue=1000000')).toEqual([FI.B]);
    // SE: the latest company accounts (not the group's) count.
    expect(await ids('country=SE&minRevenue=10000000')).toEqual([SE.B, SE.C].sort());
    expect(await ids('country=SE&minRevenue=10000000&maxRevenue=20000000')).toEqual([SE.B]);
    const spec = (await http(server.url, 'GET', '/openapi.json')).body;
    const param = spec.paths['/api/companies'].get.parameters.find((p: { name: string }) => p.name === 'minRevenue');
    expect(param.description ?? param.schema.description).toMatch(/EUR \(FI\), SEK \(SE\)/);
  });

  it('MCP get_financials answers for a Finnish and a Swedish company', async () => {
    const client = new Client({ name: 'fi-se-financials', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const call = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: 'get_financials', arguments: args })) as CallToolResult;
      const fi = await call({ orgNumber: FI.B, country: 'FI' });
      expect(fi.isError).toBeFalsy();
      expect(fi.structuredContent).toMatchObject({
        orgNumber: FI.B,
        financials: [expect.objectContaining({ netResult: -151320, currency: 'EUR' })],
        _sources: { fields: { financials: 'PRH (XBRL financial statements)' } },
      });
      const se = await call({ orgNumber: SE.C, country: 'SE' });
      expect(se.isError).toBeFalsy();
      expect((se.structuredContent as { financials: unknown[] }).financials).toHaveLength(2);
      expect(se.structuredContent).toMatchObject({
        _sources: { fields: { financials: 'Bolagsverket (iXBRL annual reports)' } },
      });
    } finally {
      await client.close();
    }
  });

  it('health lists the skipped documents with their reasons; the companies keep their other filings', async () => {
    const ds = await health();
    expect(ds['prh-financials']).toMatchObject({ status: 'ok', skipped: { total: 3 } });
    const fiReasons = ds['prh-financials'].skipped.latest.map((s: { reason: string }) => s.reason).join(' | ');
    expect(fiReasons).toMatch(/unknown taxonomy/);
    expect(fiReasons).toMatch(/not a number/);
    expect(fiReasons).toMatch(/not well-formed XML/);
    expect(ds['bolagsverket-financials']).toMatchObject({ status: 'ok', skipped: { total: 4 } });
    const seSkipped = ds['bolagsverket-financials'].skipped.latest as { filing: string; reason: string }[];
    expect(Object.fromEntries(seSkipped.map((s) => [s.filing, s.reason]))).toMatchObject({
      'D-trunc_paket': expect.stringMatching(/not well-formed XHTML/),
      'D-tax_paket': expect.stringMatching(/unknown taxonomy/),
      'D-fig_paket': expect.stringMatching(/se-gen-base:Nettoomsattning: .* is not a number/),
      'D-empty_paket': expect.stringMatching(/holds no report/),
    });
    expect(ds['bolagsverket-financials'].notScheduled).toBeUndefined();
    expect(JSON.stringify(ds)).not.toContain(bv.env.BOLAGSVERKET_CLIENT_SECRET);
  });

  it('changed figures append accounts events', async () => {
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    prhx.filings.push({
      businessId: FI.A,
      financialDate: '2024-12-31',
      registrationDate: new Date().toISOString().slice(0, 10),
      xml: fixture('prh-xbrl/3470101-6_2024-12-31_corrected.xml'),
    });
    const r = await run('prh-financials');
    expect(r.details).toMatchObject({ fetched: 1, stored: 1, changed: 1 });
    const events = (await get(`/api/events?after=${lastSeq}&limit=100`)).body.data;
    expect(events).toEqual([
      expect.objectContaining({
        country: 'FI',
        orgNumber: FI.A,
        category: 'accounts',
        type: 'accounts_figures_corrected',
        source: 'PRH (XBRL financial statements)',
        before: {
          'accounts.2024-12-31:SELSKAP.netResult': 71200,
          'accounts.2024-12-31:SELSKAP.equity': 412900,
          'accounts.2024-12-31:SELSKAP.totalAssets': 860300,
        },
        after: {
          'accounts.2024-12-31:SELSKAP.netResult': 69800,
          'accounts.2024-12-31:SELSKAP.equity': 411500,
          'accounts.2024-12-31:SELSKAP.totalAssets': 858900,
        },
      }),
    ]);
  });
});

describe('without Bolagsverket credentials', () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startServer({
      env: {
        PRH_BASE_URL: upstream.baseUrl,
        BOLAGSVERKET_BULK_URL: `${upstream.url}${BULK_PATH}`,
        SYNC_SECRET: SECRET,
      },
    });
    await runJob(bare.ctx, 'prh', {}, () => undefined);
    await runJob(bare.ctx, 'bolagsverket', {}, () => undefined);
  }, 120_000);
  afterAll(async () => bare?.close());

  it('the job is not scheduled, health says why, and a network run fails with that reason', async () => {
    // Counted from here, not by time: on PostgreSQL the previous test's requests can fall within any window.
    const requestsBefore = bv.requests.length;
    expect(await bolagsverketFinancialsJob.scheduled!(bolagsverketFinancialsJob.deps(bare.ctx))).toBe(false);
    expect(await bolagsverketFinancialsJob.scheduled!(bolagsverketFinancialsJob.deps(server.ctx))).toBe(true);
    const ds = (await http(bare.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SECRET } })).body.dataSources;
    expect(ds['bolagsverket-financials']).toMatchObject({
      status: 'never',
      notScheduled: expect.stringMatching(/BOLAGSVERKET_CLIENT_ID and BOLAGSVERKET_CLIENT_SECRET are not set/),
      message: expect.stringMatching(/not scheduled/),
    });
    await expect(runJob(bare.ctx, 'bolagsverket-financials', {}, () => undefined)).rejects.toThrow(
      /BOLAGSVERKET_CLIENT_ID and BOLAGSVERKET_CLIENT_SECRET are not set/,
    );
    expect(bv.requests).toHaveLength(requestsBefore);
  });

  it('--file loads report packages and XBRL statements offline', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ncd-fin-'));
    const bundle = path.join(dir, 'arsredovisningar.zip');
    writeFileSync(
      bundle,
      await zipMany({
        [`${SE.A}_2024-12-31.zip`]: await pkg({ 'x.xhtml': fixture('bolagsverket/5560047010_2024-12-31.xhtml') }),
        [`${SE.C}_2024-12-31.zip`]: await pkg({
          'k.xhtml': fixture('bolagsverket/5560047036_2024-12-31_koncern.xhtml'),
        }),
        [`${SE.D}_2024-12-31.zip`]: await pkg({ 'readme.txt': 'tom' }),
      }),
    );
    const se = await runJob(bare.ctx, 'bolagsverket-financials', { file: bundle }, () => undefined);
    expect(se).toMatchObject({ status: 'ok', recordsProcessed: 3, details: { stored: 2, skipped: 1 } });
    const statement = path.join(dir, 'statement.xml');
    writeFileSync(statement, fixture('prh-xbrl/3470102-4_2024-06-30.xml'));
    const fi = await runJob(bare.ctx, 'prh-financials', { file: statement }, () => undefined);
    expect(fi).toMatchObject({ status: 'ok', recordsProcessed: 1, details: { stored: 1 } });
    const bareKey = (await createKey(bare, { tier: 'internal' })).raw;
    const k = (await http(bare.url, 'GET', `/api/companies/${SE.C}?country=SE`, { key: bareKey })).body;
    expect(k.financials.map((f: { regnskapstype: string; revenue: number }) => [f.regnskapstype, f.revenue])).toEqual([
      ['KONSERN', 212730000],
    ]);
    const b = (await http(bare.url, 'GET', `/api/companies/${FI.B}?country=FI`, { key: bareKey })).body;
    expect(b.financials[0]).toMatchObject({ netResult: -151320 });
  });
});
