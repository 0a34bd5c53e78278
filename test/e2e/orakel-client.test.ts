// The reads Orakel's own agent client makes (its normalise() over GET /api/companies/{orgNumber}
// and its search over GET /api/companies?q=&limit=), written here as our own code: the same
// paths and fields, so every field that client reads is shown to carry a value when the store
// holds its inputs. Expected values are computed by hand in the comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import '../../src/jobs/shareholders.ts';
import { SOURCE } from '../../src/domain/company.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import type { BrregEnhet } from '../../src/sources/brreg/types.ts';
import type { CompanyWrite } from '../../src/store/company-writes.ts';
import { byCompany, byForeign, org, removeRegisters, writeRegister } from '../fixtures/aksjonaer/build.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
const [ASA, BANKRUPT, BARE, HOLD] = [org(450), org(451), org(452), org(453)];
// The latest filed year is always last year, so the filing is at most 12 months old (10 points).
const Y = new Date().getUTCFullYear() - 1;

// An Enhetsregisteret record in the documented JSON shape (FORMATS.md, brreg enheter), hand-written.
const enhet = (orgNumber: string, navn: string, extra: Partial<BrregEnhet> = {}): BrregEnhet => ({
  organisasjonsnummer: orgNumber,
  navn,
  organisasjonsform: { kode: 'ASA', beskrivelse: 'Allmennaksjeselskap' },
  naeringskode1: { kode: '35.140', beskrivelse: 'Handel med elektrisitet' },
  antallAnsatte: 120,
  hjemmeside: 'www.fjordkraft-test.no',
  stiftelsesdato: '2001-03-01',
  forretningsadresse: {
    adresse: ['Karl Johans gate 1'],
    postnummer: '0154',
    poststed: 'OSLO',
    kommune: 'OSLO',
    kommunenummer: '0301',
    land: 'Norge',
    landkode: 'NO',
  },
  ...extra,
});

const year = (
  y: number,
  revenue: number,
  operatingProfit: number,
  netResult: number,
  equity: number,
  assets: number,
) => ({
  upstreamId: null,
  accountsType: 'SELSKAP',
  periodFrom: `${y}-01-01`,
  periodTo: `${y}-12-31`,
  currency: 'NOK',
  revenue,
  operatingProfit,
  netResult,
  equity,
  totalAssets: assets,
  totalLiabilities: assets - equity,
  source: SOURCE.regnskap,
});
const ACCOUNTS = [
  year(Y, 400_000_000, 40_000_000, 30_000_000, 120_000_000, 300_000_000),
  year(Y - 1, 360_000_000, 20_000_000, 10_000_000, 90_000_000, 280_000_000),
];

const write = (e: BrregEnhet, financials = ACCOUNTS): CompanyWrite => ({
  core: mapEnhet(e),
  roles: [],
  financials,
  fetched: true,
});

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'internal' })).raw;
  await server.ctx.repos.companyWrites.write([
    write(enhet(ASA, 'FJORDKRAFT TEST ASA')),
    write(enhet(BANKRUPT, 'KONKURS TEST ASA', { konkurs: true })),
    write(
      enhet(BARE, 'TOMT TEST AS', {
        hjemmeside: undefined,
        antallAnsatte: undefined,
        organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
      }),
      [],
    ),
    write(enhet(HOLD, 'HOLDING TEST AS', { antallAnsatte: 2 }), []),
  ]);
  // 1 000 shares: a Swedish fund holds 600 (60 %, foreign), a Norwegian holding company 400.
  const file = writeRegister(`aksjeeierbok_${Y}.csv`, [
    byForeign(ASA, 'FJORDKRAFT TEST ASA', 'NORDISK KAPITAL AB', 600, 1000),
    byCompany(ASA, 'FJORDKRAFT TEST ASA', HOLD, 'HOLDING TEST AS', 400, 1000),
  ]);
  await runJob(server.ctx, 'shareholders', { file }, () => undefined);
  const [row] = await server.ctx.repos.companyReads.findRows('NO', [ASA]);
  await server.ctx.repos.webProfile.complete(
    row.id,
    {
      primaryDomain: 'fjordkraft-test.no',
      enrichedDomains: ['fjordkraft-test.no', 'fjordkraft-test.com'],
      linkedinHandle: 'fjordkraft-test',
      facebookHandle: null,
      instagramHandle: null,
      twitterHandle: null,
      technologies: [{ name: 'WordPress', category: 'CMS', confidence: 0.9 }],
      technologyNames: ['WordPress'],
      hasAdPixel: false,
      sources: { domain: SOURCE.webProfile, technologies: SOURCE.webProfile, socialHandles: SOURCE.webProfile },
    },
    new Date(),
  );
});
afterAll(async () => {
  await server?.close();
  removeRegisters();
});

type Json = Record<string, any>;

/** What the client's normalise() reads of a lookup body, by the same paths. */
function clientRead(raw: Json) {
  const latest = Array.isArray(raw.financials) ? raw.financials[0] : undefined;
  const signals = raw.signals ?? null;
  return {
    orgNumber: raw.orgNumber,
    name: raw.name,
    country: raw.country,
    website: raw.website ?? null,
    primaryDomain: raw.primaryDomain ?? null,
    employeeCount: raw.employeeCount ?? null,
    foundingDate: raw.foundingDate ?? null,
    naceCode: raw.naceCode1 ?? null,
    naceDescription: raw.naceName ?? raw.naceDescription1 ?? null,
    technologies: raw.technologies,
    linkedinHandle: raw.linkedinHandle ?? null,
    sizeClass: raw.sizeClass ?? null,
    municipality: raw.businessAddressMuni ?? null,
    isBankrupt: raw.isBankrupt ?? null,
    isInDebtNegotiation: signals?.isInDebtNegotiation ?? null,
    latestFinancialYear: typeof latest?.periodTo === 'string' ? Number(latest.periodTo.slice(0, 4)) : null,
    revenue: latest?.revenue ?? null,
    operatingResult: latest?.operatingResult ?? null,
    netResult: latest?.netResult ?? null,
    financialHealthScore: signals?.financialHealthScore ?? null,
    revenueCagr: signals?.revenueCagr ?? null,
    ownershipConcentrationPct: signals?.ownershipConcentrationPct ?? null,
    isForeignOwned: signals?.isForeignOwned ?? null,
    enrichedDomains: raw.enrichedDomains,
  };
}

async function lookup(orgNumber: string): Promise<Json> {
  const r = await http(server.url, 'GET', `/api/companies/${orgNumber}`, { key });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

describe("the reads of Orakel's agent client", () => {
  it('finds every field it reads, with the hand-computed values, for an ASA with two filed years and a register', async () => {
    const raw = await lookup(ASA);
    const read = clientRead(raw);
    for (const [field, value] of Object.entries(read)) expect(value, field).not.toBeNull();
    // Health score, latest year: equity ratio 120/300 = 40 % -> 30; margin 30/400 = 7.5 % ->
    // 25 x (7.5 + 10) / 20 = 21.875; revenue trend (400 - 360)/360 = 11.1 % -> 20 x (11.1 + 20)/40
    // = 15.556; positive equity 15; filed at most 18 months ago 10: 92.43 -> 92.
    // CAGR over one year: 400/360 - 1 = 0.1111. Size: 120 staff (< 250) and NOK 400 m / 11.629 =
    // EUR 34.4 m (<= 50 m): medium.
    expect(read).toMatchObject({
      website: 'https://www.fjordkraft-test.no',
      primaryDomain: 'fjordkraft-test.no',
      sizeClass: 'medium',
      municipality: 'Oslo',
      isBankrupt: false,
      isInDebtNegotiation: false,
      latestFinancialYear: Y,
      revenue: 400_000_000,
      operatingResult: 40_000_000,
      netResult: 30_000_000,
      financialHealthScore: 92,
      revenueCagr: 0.1111,
      ownershipConcentrationPct: 60,
      isForeignOwned: true,
    });
    expect(raw.financials[0].operatingProfit).toBe(40_000_000);
    expect(raw.signals.explanation.financialHealthScore).toMatchObject({
      year: Y,
      inputs: { equityRatio: 0.4, profitMargin: 0.075, revenueTrend: 0.1111, cap: null },
    });
    expect(raw.signals.explanation.revenueCagr.inputs).toEqual({
      oldestYear: Y - 1,
      oldestRevenue: 360_000_000,
      latestYear: Y,
      latestRevenue: 400_000_000,
    });
    expect(raw.signals.explanation.isForeignOwned).toMatchObject({ inputs: { foreignOwnedPct: 60 }, year: Y });
    expect(raw._sources.fields.signals).toEqual({ source: SOURCE.regnskap, computed: true });
  });

  it('gives the same fields and signals on enrich records', async () => {
    const r = await http(server.url, 'POST', '/api/companies/enrich', {
      key,
      body: { pairs: [{ orgNumber: ASA, country: 'NO' }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const read = clientRead(r.body.data[0]);
    expect(read).toMatchObject({
      sizeClass: 'medium',
      municipality: 'Oslo',
      financialHealthScore: 92,
      isForeignOwned: true,
    });
    expect(r.body.data[0].signals.explanation.ownershipConcentrationPct.year).toBe(Y);
  });

  it('caps a bankrupt company low, and leaves signals null (not 0) without their inputs', async () => {
    const bankrupt = await lookup(BANKRUPT);
    // The same accounts as the ASA (92 points), capped at 10 for the bankruptcy.
    expect(bankrupt.signals.financialHealthScore).toBe(10);
    expect(bankrupt.signals.explanation.financialHealthScore.inputs).toMatchObject({ isBankrupt: true, cap: 10 });
    const bare = await lookup(BARE);
    expect(bare.signals).toMatchObject({
      financialHealthScore: null,
      revenueCagr: null,
      ownershipConcentrationPct: null,
      isForeignOwned: null,
      isInDebtNegotiation: false,
    });
    expect(Object.keys(bare.signals.explanation)).toEqual(['isInDebtNegotiation']);
    expect(bare).toMatchObject({ sizeClass: null, website: null, businessAddressMuni: 'Oslo' });
    expect(bare.financials).toEqual([]);
  });

  it('reads the search rows as its search does: every field has a value', async () => {
    const r = await http(server.url, 'GET', `/api/companies?q=${encodeURIComponent('fjordkraft test')}&limit=5`, {
      key,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const rows = (r.body.data as Json[]).map((c) => ({
      orgNumber: c.orgNumber,
      name: c.name,
      country: c.country,
      employeeCount: c.employeeCount ?? null,
      naceName: c.naceName ?? null,
      sizeClass: c.sizeClass ?? null,
    }));
    expect(rows).toHaveLength(1);
    for (const [field, value] of Object.entries(rows[0])) expect(value, field).not.toBeNull();
    expect(rows[0]).toMatchObject({ orgNumber: ASA, sizeClass: 'medium', employeeCount: 120 });
    expect(r.body.data[0]).toMatchObject({ businessAddressMuni: 'Oslo', website: 'https://www.fjordkraft-test.no' });
    expect(r.body.data[0].financials[0].operatingResult).toBe(40_000_000);
  });
});

describe("the company-by-domain lookup that client fakes (name-search the domain's first label, fetch every candidate, compare domains)", () => {
  it('is one search by domain, and one match by e-mail', async () => {
    // The three companies whose registry homepage is www.fjordkraft-test.no (the ASA, the bankrupt
    // one and the holding company share it in this fixture); a path and https:// change nothing.
    const r = await http(
      server.url,
      'GET',
      `/api/companies?domain=${encodeURIComponent('https://www.fjordkraft-test.no/om-oss')}&limit=10`,
      { key },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.data as Json[]).map((c) => c.orgNumber).sort()).toEqual([ASA, BANKRUPT, HOLD].sort());
    // By a sender's address: the ASA holds the domain in the registry and in the pipeline, and
    // its name spells it: 0.55 + 0.35 + 0.3 = 1.2, clamped to 1.
    const m = await http(server.url, 'POST', '/api/companies/match', {
      key,
      body: { queries: [{ email: 'faktura@fjordkraft-test.no' }] },
    });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body.results[0].match).toMatchObject({ orgNumber: ASA, score: 1 });
    expect(m.body.results[0].match.features.domainEvidence).toMatchObject({ homepage: true, enrichedDomain: true });
  });
});
