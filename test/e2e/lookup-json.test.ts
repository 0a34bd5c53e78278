// GET /api/companies/{orgNumber} answers an uncached lookup with JSON text the database writes for
// the most part (store/company-lookup-row.ts, services/companies/lookup-json.ts): each body must be
// byte for byte what the typed record serialises to under the CompanyLookup schema. The typed
// reference is the company service's lookup (buildCompanyRecord with labels and signals, the path
// include=context and MCP use), serialised by Fastify's compiled serializer in an app of its own.
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMPANY_SCHEMAS } from '../../src/contract/company.ts';
import { isValidOrgNumber, type Country } from '../../src/domain/org-number.ts';
import { runJob } from '../../src/jobs/runner.ts';
import type { ProcurementWrite } from '../../src/store/procurement.ts';
import { byCompany, byForeign, byPerson, removeRegisters, writeRegister } from '../fixtures/aksjonaer/build.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
let typed: FastifyInstance;
let nextTyped: unknown;

/** The first `n` valid numbers of a country from `start` up. */
function validNumbers(country: Country, start: number, n: number): string[] {
  const out: string[] = [];
  for (let i = start; out.length < n; i++) if (isValidOrgNumber(country, String(i))) out.push(String(i));
  return out;
}

const query = async <T = Record<string, unknown>>(q: string, params: unknown[] = []) =>
  (await server.ctx.store.pool.query(q, params)).rows as T[];

function notice(eformsId: string, over: Partial<ProcurementWrite>): ProcurementWrite {
  return {
    eformsId,
    doffinId: `2026-${eformsId.slice(0, 6)}`,
    tedId: null,
    procedureId: null,
    noticeType: 'competition',
    noticeTypeCode: 'cn-standard',
    title: 'Rammeavtale om "rådgivning" \\ drift',
    titleNorm: 'rammeavtale om radgivning drift',
    description: null,
    orgNumber: null,
    buyerName: 'Kjøper AS',
    buyerCompanyId: null,
    country: 'NOR',
    cpvCodes: ['72000000'],
    cpvPrefixes: ['72'],
    procedureType: 'open',
    publishedDate: '2026-10-01T00:00:00.000Z',
    deadline: '2099-01-01T12:00:00.000Z',
    estimatedValue: 1_250_000.5,
    currency: 'NOK',
    awardedValue: null,
    lots: [],
    nutsCodes: ['NO081'],
    winners: [],
    winnerOrgNumbers: [],
    language: 'NOR',
    ...over,
  };
}

beforeAll(async () => {
  server = await startServer();
  await loadGeneratedCompanies(server, 160, 47);
  const orgs = (await query<{ org_number: string }>('SELECT org_number FROM companies ORDER BY id LIMIT 4')).map(
    (o) => o.org_number,
  );
  const [a, b, c, d] = orgs;
  // Owners: a majority owner, a foreign holder (isForeignOwned), a person.
  await runJob(
    server.ctx,
    'shareholders',
    {
      file: writeRegister('aksjeeierbok_2024.csv', [
        byCompany(a, 'A AS', b, 'B AS', 700, 1000),
        byPerson(a, 'A AS', 'OLA NORDMANN', 1980, 300, 1000),
        byForeign(b, 'B AS', 'NORDISK KAPITAL AB', 600, 1000),
        byCompany(b, 'B AS', c, 'C AS', 400, 1000),
      ]),
    },
    () => undefined,
  );
  // Procurement: c buys (an open competition and an older one), d won a contract.
  await server.ctx.repos.procurement.upsert([
    notice('a1b2c3d4-0000-4000-8000-000000000001', { orgNumber: c }),
    notice('a1b2c3d4-0000-4000-8000-000000000002', {
      orgNumber: c,
      publishedDate: '2025-01-01T00:00:00.000Z',
      deadline: '2025-02-01T00:00:00.000Z',
    }),
    notice('a1b2c3d4-0000-4000-8000-000000000003', {
      noticeType: 'result',
      noticeTypeCode: 'can-standard',
      orgNumber: a,
      awardedValue: 990_000,
      winnerOrgNumbers: [d],
      winners: [{ orgNumber: d, name: 'D AS' }],
    }),
  ]);
  await server.ctx.repos.licenses.upsert([
    {
      licenseNumber: 'L-2024-17',
      registerType: 'alcohol',
      orgNumber: d,
      holderName: 'D AS',
      venueName: 'Kafé «Fjord»',
      venueOrgNumber: null,
      licenseTypeCode: 'SKJ',
      licenseTypeDescription: 'Skjenkebevilling',
      productGroups: ['1', '2'],
      address: 'Kaia 1',
      postnr: '5003',
      poststed: 'BERGEN',
      municipality: 'BERGEN',
      municipalityNo: '4601',
      issuingAuthority: 'Bergen kommune',
      validFrom: '2024-05-01T00:00:00.000Z',
      validTo: null,
    },
  ]);
  // What the generator leaves out: odd text, web profiles, registry intervals, other countries
  // with their own signals (DK owner bands, SE marketing protection, FI), deleted companies.
  await query(`UPDATE companies SET name = E'A "quoted" \\\\ name\\u0001\\t æøå 😀 \\u2028 </script>',
      description = E'line\\nbreak' WHERE id % 11 = 0`);
  await query(`UPDATE companies SET primary_domain = 'example.no', enriched_domains = '{example.com,"x\\"y.no"}',
      linkedin_handle = 'acme', technology_names = '{Shopify}', has_ad_pixel = true,
      technologies = '[{"confidence":0.90,"category":"ecommerce","name":"Shopify","version":"2"}]' WHERE id % 13 = 0`);
  await query(`UPDATE companies SET employee_count_range = '5-9' WHERE id % 7 = 0`);
  await query(`UPDATE companies SET is_deleted = true, deleted_date = '2025-03-01' WHERE id % 23 = 0`);
  await query(`UPDATE companies SET is_in_debt_negotiation = true WHERE id % 9 = 0`);
  // Partners' shares in the registry's spellings, and one the API cannot read (null).
  await query(`UPDATE roles SET responsibility_share = CASE id % 6 WHEN 0 THEN '1/3' WHEN 1 THEN ' 12,5 %'
      WHEN 2 THEN '1/32' WHEN 3 THEN '50%' WHEN 4 THEN '2/0' ELSE 'x' END WHERE id % 5 = 0`);
  const others = (await query<{ id: number }>('SELECT id FROM companies WHERE id % 10 = 5 ORDER BY id')).map(
    (r) => r.id,
  );
  const [dk, se, fi] = [validNumbers('DK', 30_000_000, 5), validNumbers('SE', 5_560_000_000, 5), ['2646674-9']];
  const moved: [Country, string, number][] = [
    ...dk.map((n, i): [Country, string, number] => ['DK', n, others[i]]),
    ...se.map((n, i): [Country, string, number] => ['SE', n, others[5 + i]]),
    ['FI', fi[0], others[10]],
  ];
  for (const [country, n, id] of moved) {
    await query(
      `UPDATE companies SET country = $1, org_number = $2, marketing_protected = $3,
         status = CASE WHEN id % 2 = 0 THEN 'restructuring' ELSE status END WHERE id = $4`,
      [country, n, country === 'FI' ? null : id % 3 === 0, id],
    );
  }
  await server.ctx.repos.cvrOwners.replace([
    {
      cvr: dk[0],
      owners: [
        {
          ownerType: 'company',
          ownerName: 'Kystholding ApS',
          ownerCvr: dk[1],
          pctLow: 66.67,
          pctHigh: 90,
          votingPctLow: null,
        },
        { ownerType: 'person', ownerName: 'P', ownerCvr: null, pctLow: 10, pctHigh: 15, votingPctLow: 10 },
      ],
    },
  ]);
  // A lookup of a bulk-loaded Norwegian record waits for its live completion; here every record
  // counts as complete, so each lookup is served from the store.
  await query(`UPDATE companies SET fetched_at = now()`);
  key = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
  typed = Fastify();
  for (const schema of COMPANY_SCHEMAS) typed.addSchema(schema);
  typed.get('/one', { schema: { response: { 200: Type.Ref('CompanyLookup') } } }, async () => nextTyped);
  await typed.ready();
}, 180_000);
afterAll(async () => {
  await typed?.close();
  await server?.close();
  removeRegisters();
});

it('serves each lookup byte for byte as the typed record serialises, across every kind of record', async () => {
  const companies = await query<{ org_number: string; country: Country }>(
    'SELECT org_number, country FROM companies ORDER BY id',
  );
  let all = '';
  for (const { org_number, country } of companies) {
    const path = `/api/companies/${org_number}?country=${country}`;
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await res.text();
    nextTyped = await server.services.companies.lookup(country, org_number);
    expect(body, path).toBe((await typed.inject({ url: '/one' })).body);
    all += body;
  }
  expect(companies.length).toBeGreaterThan(150);

  // The comparison covered what the store-written path writes in its own way.
  for (const needle of [
    '"employeeCountRange":"5-9"',
    '"majorityOwner":{"name":"B AS"',
    '"isForeignOwned":true',
    '"ownershipConcentrationPct":66.67',
    '"isInDebtNegotiation":true',
    '"marketingProtected":true',
    '"marketingProtected":false',
    '"country":"FI"',
    '{"name":"Shopify","category":"ecommerce","confidence":0.9}',
    '\\u0001\\t æøå 😀',
    '"isDeleted":true',
    '"activeTenders":1,"latestTenderUrl":"',
    '"awardedContracts":{"count":1,"latest":{"noticeId":',
    '"awardedContracts":{"count":0,"latest":null}',
    '"licenses":[{"id":',
    '"venueName":"Kafé «Fjord»"',
    '"subUnits":[{"orgNumber":',
    '"financialHealthScore":',
    '"ownershipPercent":33.33',
    '"ownershipPercent":12.5',
    '"ownershipPercent":3.13',
    '"ownershipPercent":50}',
  ]) {
    expect(all).toContain(needle);
  }
}, 120_000);

it('serves the cached body the second time, unchanged', async () => {
  const [{ org_number }] = await query<{ org_number: string }>(
    "SELECT org_number FROM companies WHERE country = 'NO' ORDER BY id LIMIT 1",
  );
  const get = async () =>
    (await fetch(`${server.url}/api/companies/${org_number}`, { headers: { authorization: `Bearer ${key}` } })).text();
  const first = await get();
  expect(await get()).toBe(first);
});
