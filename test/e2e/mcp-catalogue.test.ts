// Orakel's MCP tool catalogue (issue 21): every tool its plugin's skills call is called here with
// the arguments those skills use (REFERENCE-ORAKEL.md §5), and its result is compared with the
// REST operation it mirrors, on a store loaded through the real sync jobs (companies with
// accounts and roles, shareholder register, inspections, licences).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { generateShareholderCsv } from '../../src/sources/aksjonaer/generate.ts';
import { generateInspectionsCsv } from '../../src/sources/mattilsynet/generate.ts';
import { generateLicensesCsv } from '../../src/sources/tbr/generate.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { tableResolver } from '../net/servers.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let receiver: WebhookReceiver;
let key: string;
let client: Client;
let companies: { orgNumber: string; name: string; muni: string | null }[];
/** A company with a shareholder register entry, an inspection and a licence. */
let rich: string;
/** A company holding shares in another. */
let owner: string;

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

beforeAll(async () => {
  // Destination hosts resolve through a table, never the system resolver.
  server = await startServer({ overrides: { resolver: tableResolver({ 'hooks.example': ['93.184.216.34'] }) } });
  receiver = await startWebhookReceiver();
  await loadGeneratedCompanies(server, 40, 5);
  companies = (
    await server.ctx.store.pool.query<{ orgNumber: string; name: string; muni: string | null }>(
      `SELECT org_number AS "orgNumber", name, business_address_muni_no AS muni FROM companies ORDER BY org_number`,
    )
  ).rows;
  const list = companies.map((c) => ({ orgNumber: c.orgNumber, name: c.name }));
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-catalogue-'));
  const quiet = () => undefined;
  try {
    const register = path.join(dir, 'aksjeeierbok_2024.csv');
    writeFileSync(register, await text(generateShareholderCsv({ companies: list, seed: 4 })));
    await runJob(server.ctx, 'shareholders', { file: register }, quiet);
    const tilsyn = path.join(dir, 'tilsyn.csv');
    writeFileSync(tilsyn, await text(generateInspectionsCsv({ venues: list, seed: 4, maxInspectionsPerVenue: 2 })));
    await runJob(server.ctx, 'inspections', { file: tilsyn }, quiet);
    const tbr = path.join(dir, 'licenses.csv');
    writeFileSync(tbr, await text(generateLicensesCsv({ companies: list, seed: 4, maxLicensesPerCompany: 2 })));
    await runJob(server.ctx, 'licenses', { file: tbr }, quiet);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pick = async (query: string) => (await server.ctx.store.pool.query<{ o: string }>(query)).rows[0]?.o;
  rich = (await pick(
    `SELECT s.org_number AS o FROM shareholdings s
       JOIN inspections i ON i.org_number = s.org_number
       JOIN licenses l ON l.org_number = s.org_number
      ORDER BY 1 LIMIT 1`,
  ))!;
  owner = (await pick(
    `SELECT holder_org_number AS o FROM shareholdings WHERE holder_org_number IS NOT NULL ORDER BY 1 LIMIT 1`,
  ))!;
  key = (await createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0 } })).raw;
  client = new Client({ name: 'orakel-skills', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
}, 180_000);
afterAll(async () => {
  await client?.close();
  await server?.close();
  await receiver?.close();
});

async function tool(name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  return r.structuredContent as Record<string, any>;
}
const rest = async (method: string, p: string, body?: unknown) => {
  const r = await http(server.url, method, p, { key, body });
  expect(r.status, `${method} ${p}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
};
const withoutCursor = (page: Record<string, unknown>) => ({ ...page, nextCursor: page.nextCursor === null });

describe("Orakel's skills' tool calls match their REST twins", () => {
  it('has data for every tool', () => {
    expect(rich).toMatch(/^[0-9]{9}$/);
    expect(owner).toMatch(/^[0-9]{9}$/);
  });

  it('lookup_company and get_financials', async () => {
    const r = await tool('lookup_company', { orgNumber: rich, country: 'NO' });
    expect(r).toEqual(await rest('GET', `/api/companies/${rich}`));
    const fin = await tool('get_financials', { orgNumber: rich });
    expect(fin.financials).toEqual(r.financials);
  });

  it('search_companies with query, filters, sort and compact', async () => {
    const name = companies[3].name.split(' ')[0];
    const args = { country: 'NO', query: name, minEmployees: 0, sort: 'employeeCount', order: 'desc', limit: 5 };
    const full = await tool('search_companies', { ...args, compact: false });
    const twin = await rest(
      'GET',
      `/api/companies?country=NO&q=${encodeURIComponent(name)}&minEmployees=0&sort=employeeCount&order=desc&limit=5`,
    );
    expect(withoutCursor(full)).toEqual(withoutCursor(twin));
    expect(full.data.length).toBeGreaterThan(0);
    const compact = await tool('search_companies', { ...args, compact: true });
    expect(compact.data.map((c: any) => c.orgNumber)).toEqual(twin.data.map((c: any) => c.orgNumber));
    expect(compact.data[0]).not.toHaveProperty('roles');
  });

  it('find_prospects: largest first, with the latest financials', async () => {
    const muni = companies.find((c) => c.muni)!.muni!;
    const r = await tool('find_prospects', { country: 'NO', municipality: muni, minEmployees: 0, limit: 10 });
    const twin = await rest(
      'GET',
      `/api/companies?municipality=${muni}&minEmployees=0&sort=employeeCount&order=desc&limit=10`,
    );
    expect(r.data.map((c: any) => c.orgNumber)).toEqual(twin.data.map((c: any) => c.orgNumber));
    expect(r.data.length).toBeGreaterThan(0);
    r.data.forEach((c: any, i: number) => {
      const f = twin.data[i].financials[0];
      expect(c.latestFinancial).toEqual(
        f
          ? expect.objectContaining({
              revenue: f.revenue,
              netResult: f.netResult,
              year: Number(f.periodTo.slice(0, 4)),
            })
          : null,
      );
    });
    const sizes = r.data.map((c: any) => c.employeeCount ?? -1);
    expect(sizes).toEqual([...sizes].sort((a: number, b: number) => b - a));
  });

  it('get_corporate_group, get_shareholders and get_ownership_network', async () => {
    expect(await tool('get_corporate_group', { orgNumber: rich })).toEqual(
      await rest('GET', `/api/companies/${rich}/group`),
    );
    const holders = await tool('get_shareholders', { orgNumber: rich, includePersons: true });
    expect(holders).toEqual(await rest('GET', `/api/companies/${rich}/shareholders?includePersons=true`));
    expect(holders.data.length).toBeGreaterThan(0);
    const network = await tool('get_ownership_network', { shareholderOrgNumber: owner });
    expect(network).toEqual(await rest('GET', `/api/shareholders/by-owner?shareholderOrgNumber=${owner}`));
    expect(network.data.length).toBeGreaterThan(0);
    const down = await tool('get_ownership_network', { shareholderOrgNumber: owner, transitive: true });
    expect(down).toEqual(await rest('GET', `/api/shareholders/by-owner?shareholderOrgNumber=${owner}&transitive=true`));
    expect(down).toMatchObject({ transitive: true, basis: 'shareholder-register' });
  });

  it('get_ultimate_owners and get_ownership_changes', async () => {
    const owners = await tool('get_ultimate_owners', { orgNumber: rich, includePersons: true, threshold: 0 });
    expect(owners).toEqual(await rest('GET', `/api/companies/${rich}/owners?includePersons=true&threshold=0`));
    expect(owners.basis).toBe('shareholder-register');
    expect(owners.candidates.length).toBeGreaterThan(0);
    const changes = await tool('get_ownership_changes', { orgNumber: rich });
    expect(changes).toEqual(await rest('GET', `/api/companies/${rich}/ownership-changes`));
    expect(changes.years).toEqual([2024]);
  });

  it('search_inspections, search_licenses, list_municipalities and screen_company', async () => {
    const insp = await tool('search_inspections', { orgNumber: rich });
    expect(withoutCursor(insp)).toEqual(withoutCursor(await rest('GET', `/api/inspections?orgNumber=${rich}`)));
    expect(insp.data.length).toBeGreaterThan(0);
    const lic = await tool('search_licenses', { orgNumber: rich });
    expect(withoutCursor(lic)).toEqual(withoutCursor(await rest('GET', `/api/licenses?orgNumber=${rich}`)));
    expect(lic.data.length).toBeGreaterThan(0);
    expect(await tool('list_municipalities')).toEqual(await rest('GET', '/api/municipalities'));
    const screen = await tool('screen_company', { orgNumber: rich });
    const twin = await rest('GET', `/api/screening/${rich}`);
    expect({ ...screen, screenedAt: null }).toEqual({ ...twin, screenedAt: null });
  });

  it('manage_destination, list_destinations and push_to_destination', async () => {
    const config = { url: 'https://hooks.example/ncd', headers: { Authorization: 'Bearer crm-secret' } };
    // Private addresses are refused exactly as on REST (SSRF check).
    const ssrf = (await client.callTool({
      name: 'manage_destination',
      arguments: { action: 'create', name: 'crm', type: 'webhook', config: { url: 'http://127.0.0.1:9/x' } },
    })) as CallToolResult;
    expect(ssrf.isError).toBe(true);
    const restSsrf = await http(server.url, 'POST', '/api/destinations', {
      key,
      body: { name: 'crm', type: 'webhook', config: { url: 'http://127.0.0.1:9/x' } },
    });
    expect(restSsrf.status).toBe(400);
    expect((ssrf.content[0] as { text: string }).text).toContain(restSsrf.body.details[0].message);
    const bad = (await client.callTool({
      name: 'manage_destination',
      arguments: { action: 'create', name: 'crm', config: { url: 'https://hooks.example', method: 'GET' } },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect((await rest('GET', '/api/destinations')).data).toEqual([]);

    const created = await tool('manage_destination', { action: 'create', name: 'crm', type: 'webhook', config });
    expect(created).toEqual(await rest('GET', '/api/destinations/crm'));
    expect(created.config.headers).toEqual({ Authorization: '***' });
    const off = await tool('manage_destination', { action: 'deactivate', name: 'crm' });
    expect(off.isActive).toBe(false);
    expect((await rest('GET', '/api/destinations/crm')).isActive).toBe(false);
    expect((await tool('manage_destination', { action: 'activate', name: 'crm' })).isActive).toBe(true);

    server.ctx.config.allowPrivateDestinations = true; // the receiver listens on loopback
    try {
      const updated = await tool('manage_destination', {
        action: 'update',
        name: 'crm',
        config: { url: receiver.url },
      });
      expect(updated).toEqual(await rest('GET', '/api/destinations/crm'));
      expect(await tool('list_destinations')).toEqual(await rest('GET', '/api/destinations'));
      const pushed = await tool('push_to_destination', { destinationName: 'crm', orgNumbers: [rich] });
      expect(pushed).toEqual(await rest('POST', '/api/push/crm', { orgNumbers: [rich] }));
      expect(pushed.errors).toEqual([]);
    } finally {
      server.ctx.config.allowPrivateDestinations = false;
    }
    expect(await tool('manage_destination', { action: 'delete', name: 'crm' })).toEqual({ name: 'crm', deleted: true });
    expect((await http(server.url, 'GET', '/api/destinations/crm', { key })).status).toBe(404);
  });

  it('tells what each tool returns and costs', async () => {
    const { tools } = await client.listTools();
    for (const t of tools) expect(t.description, t.name).toMatch(/Cost: each call is one request/);
  });
});
