// The search filters fed by the web-profile pipeline: hasAnyAdPixel and hasTechnology return
// exactly the companies whose confirmed sites carry them, after a real `domains` run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyCore } from '../../src/domain/company.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { scenarioCompanies, startScenarioSites } from '../fakes/websites/scenario.ts';
import type { FakeWebsites } from '../fakes/websites/server.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let sites: FakeWebsites;
let server: TestServer;
let key: string;
let companies: Record<string, CompanyCore>;

beforeAll(async () => {
  companies = scenarioCompanies();
  sites = await startScenarioSites(companies);
  server = await startServer({
    env: { ENRICHMENT_HOST_DELAY_MS: '0', ENRICHMENT_TIMEOUT_MS: '3000' },
    overrides: { resolver: sites.resolver, crawlerNet: { allowedAddresses: sites.allowedAddresses, dial: sites.dial } },
  });
  // Scenario companies plus ordinary generated ones (their websites resolve nowhere).
  const others = Array.from({ length: 30 }, (_, i) => generateCompany(i, 5).enhet).map(mapEnhet);
  await server.ctx.repos.companyWrites.write(
    [...Object.values(companies), ...others].map((core) => ({ core, fetched: true })),
  );
  await runJob(server.ctx, 'domains', { limit: 100 }, () => {});
  key = (await createKey(server, { tier: 'internal' })).raw;
});
afterAll(async () => {
  await server?.close();
  await sites?.close();
});

async function search(qs: string): Promise<any[]> {
  const r = await http(server.url, 'GET', `/api/companies?${qs}&limit=100`, { key });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.hasMore).toBe(false);
  return r.body.data;
}
const numbers = (rows: any[]) => rows.map((r) => r.orgNumber).sort();
const of = (...keys: string[]) => keys.map((k) => companies[k].orgNumber).sort();

describe('search filters from the enrichment pipeline', () => {
  it('hasAnyAdPixel=true returns exactly the companies with an ad pixel or GTM', async () => {
    expect(numbers(await search('hasAnyAdPixel=true'))).toEqual(of('nordlys', 'bergen'));
  });

  it('hasAnyAdPixel=false excludes them', async () => {
    const rows = numbers(await search('hasAnyAdPixel=false'));
    expect(rows).toContain(companies.fjordlys.orgNumber);
    expect(rows).not.toContain(companies.nordlys.orgNumber);
    expect(rows).not.toContain(companies.bergen.orgNumber);
  });

  it('hasTechnology matches one exact technology name', async () => {
    expect(numbers(await search('hasTechnology=Shopify'))).toEqual(of('nordlys'));
    expect(numbers(await search('hasTechnology=WordPress'))).toEqual(of('bergen'));
    expect(numbers(await search('hasTechnology=jQuery'))).toEqual(of('fjordlys', 'bergen'));
    expect(await search('hasTechnology=Magento')).toEqual([]);
  });

  it('search rows carry the enrichment fields with their provenance', async () => {
    const [row] = await search('hasTechnology=Shopify');
    expect(row).toMatchObject({
      primaryDomain: 'nordlysstrikk.no',
      instagramHandle: 'nordlysstrikk',
      hasAnyAdPixel: true,
    });
    expect(row.technologies.map((t: any) => t.name)).toContain('Shopify');
    expect(row._sources.fields).toMatchObject({
      domain: 'Enrichment pipeline',
      socialHandles: 'Enrichment pipeline',
      technologies: 'Enrichment pipeline',
    });
  });
});
