// Denmark in the ownership, group, screening, coverage, health and municipality endpoints and the
// MCP ownership tools: the recorded-shape CVR documents are synced through the real `cvr` job from
// a fake CVR Elasticsearch; the legal owners (EJERREGISTER) are served as shareholders with their
// band, the owner over 50 % is the group parent, and the owners are screened.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import '../../src/jobs/sanctions.ts';
import { startFakeCvr, type FakeCvr } from '../fakes/cvr/server.ts';
import { ftm, ndjson, removeListFiles, writeListFile } from '../fixtures/screening/ftm.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const fixture = readFileSync(new URL('../fixtures/cvr/virksomheder.ndjson', import.meta.url), 'utf8');
const xbrl = readFileSync(new URL('../fixtures/cvr/aarsrapport.xml', import.meta.url), 'utf8');
const AS = '35540008'; // owned 66.67–90 % by APS (a company) and 10–15 % by a person
const APS = '41770007'; // owned 100 % by a person
const ENK = '12340001';
const SECRET = 'dk-ownership-sync-secret-0123';
const quiet = () => undefined;

let cvr: FakeCvr;
let server: TestServer;
let key: string;
const clients: Client[] = [];

beforeAll(async () => {
  cvr = await startFakeCvr();
  cvr.hits = fixture
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  server = await startServer({
    env: { ...cvr.env, SYNC_SECRET: SECRET },
    overrides: { crawlerNet: { allowedAddresses: ['127.0.0.1'] } },
  });
  key = (await createKey(server, { tier: 'internal' })).raw;
  expect(await runJob(server.ctx, 'cvr', {}, quiet)).toMatchObject({ status: 'ok', recordsProcessed: 5 });
  cvr.files.set('/xbrl/nordlys-2023.xml', { body: xbrl, contentType: 'application/xml' });
  cvr.publications = [
    {
      cvrNummer: Number(AS),
      offentliggoerelsestype: 'regnskab',
      offentliggoerelsesTidspunkt: '2024-05-30T10:00:00.000Z',
      regnskab: { regnskabsperiode: { startDato: '2023-01-01', slutDato: '2023-12-31' } },
      dokumenter: [
        {
          dokumentUrl: `${cvr.url}/xbrl/nordlys-2023.xml`,
          dokumentMimeType: 'application/xml',
          dokumentType: 'AARSRAPPORT',
        },
      ],
    },
  ];
  expect((await runJob(server.ctx, 'cvr-financials', {}, quiet)).details).toMatchObject({ stored: 1 });
  // A screening list naming the A/S's company owner and its person owner.
  const list = [
    { id: 'dk-org', schema: 'Company', caption: 'Kystholding ApS', country: 'dk' },
    { id: 'dk-person', schema: 'Person', caption: 'Henrik Bach', topics: ['role.pep'] },
  ];
  await runJob(
    server.ctx,
    'sanctions',
    { file: writeListFile('dk.ftm.json', ndjson(list.map(ftm))), list: 'dk-e2e' },
    quiet,
  );
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await server?.close();
  await cvr?.close();
  removeListFiles();
});

const get = (p: string) => http(server.url, 'GET', p, { key });
const paths = (r: { body: { details?: { path: string }[] } }) => (r.body.details ?? []).map((d) => d.path);

describe('DK shareholders (CVR legal owners)', () => {
  it('serves the owners of a Danish company with their band; persons only on request, by name only', async () => {
    const r = await get(`/api/companies/${AS}/shareholders?country=DK`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: [
        {
          shareholderName: 'Kystholding ApS',
          shareholderType: 'company',
          shareholderOrgNumber: APS,
          ownershipPct: 66.67,
          ownershipPctRange: { low: 66.67, high: 90 },
        },
      ],
      availableYears: [],
    });
    const all = await get(`/api/companies/${AS}/shareholders?country=DK&includePersons=true`);
    expect(all.body.data).toHaveLength(2);
    expect(all.body.data[1]).toEqual({
      shareholderName: 'Henrik Bach',
      shareholderType: 'person',
      ownershipPct: 10,
      ownershipPctRange: { low: 10, high: 15 },
    });
    expect(JSON.stringify(all.body)).not.toMatch(/enhedsNummer|4002000\d{3}/);
    const sole = await get(`/api/companies/${APS}/shareholders?country=DK&includePersons=true`);
    expect(sole.body.data).toEqual([
      {
        shareholderName: 'Lars Kyster',
        shareholderType: 'person',
        ownershipPct: 100,
        ownershipPctRange: { low: 100, high: 100 },
      },
    ]);
    expect((await get(`/api/companies/${ENK}/shareholders?country=DK`)).body).toEqual({ data: [], availableYears: [] });
  });

  it('serves what a Danish company owns, with name, form and employees from the store', async () => {
    const r = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${APS}&country=DK`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      shareholderOrgNumber: APS,
      data: [
        {
          orgNumber: AS,
          companyName: 'Nordlys Maskiner A/S',
          orgFormCode: 'A/S',
          employeeCount: 57,
          ownershipPct: 66.67,
          ownershipPctRange: { low: 66.67, high: 90 },
        },
      ],
    });
  });

  it('validates the CVR number per country and refuses a year for DK', async () => {
    for (const [p, field] of [
      [`/api/companies/35540009/shareholders?country=DK`, 'params.orgNumber'],
      [`/api/companies/923609016/shareholders?country=DK`, 'params.orgNumber'],
      [`/api/companies/${AS}/shareholders`, 'params.orgNumber'], // NO by default
      [`/api/companies/${AS}/shareholders?country=DK&year=2023`, 'query.year'],
      [`/api/companies/${AS}/shareholders?country=SE`, 'query.country'],
      [`/api/shareholders/by-owner?shareholderOrgNumber=41770008&country=DK`, 'query.shareholderOrgNumber'],
      [`/api/shareholders/by-owner?shareholderOrgNumber=${APS}`, 'query.shareholderOrgNumber'],
    ]) {
      const r = await get(p);
      expect(r.status, p).toBe(400);
      expect(paths(r), p).toContain(field);
    }
  });
});

describe('DK group tree', () => {
  it('walks from a subsidiary to its majority owner and back down', async () => {
    const r = await get(`/api/companies/${AS}/group?country=DK`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      root: {
        orgNumber: APS,
        name: 'Kystholding ApS',
        orgFormCode: 'APS',
        children: [{ orgNumber: AS, name: 'Nordlys Maskiner A/S', children: [] }],
      },
      totalMembers: 2,
      _sources: { attribution: ['CVR'], fields: { companyCore: 'CVR', groupHierarchy: 'CVR' } },
    });
    expect((await get(`/api/companies/${APS}/group?country=DK`)).body.root.orgNumber).toBe(APS);
    // The parent is flagged as in a group too (it has a subsidiary), the sole proprietorship is not.
    expect((await get(`/api/companies/${APS}?country=DK`)).body).toMatchObject({
      isInGroup: true,
      parentOrgNumber: null,
    });
    expect((await get(`/api/companies/${ENK}?country=DK`)).body.isInGroup).toBe(false);
    const alone = await get(`/api/companies/${ENK}/group?country=DK`);
    expect(alone.body).toMatchObject({ root: { orgNumber: ENK, children: [] }, totalMembers: 1 });
    const missing = await get(`/api/companies/44100002/group?country=DK`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'company_not_found', error: expect.stringContaining('?country=DK') });
    expect((await get(`/api/companies/${AS}/group`)).status).toBe(400);
  });
});

describe('DK screening', () => {
  it('screens the company, its roles and its CVR owners', async () => {
    const r = await get(`/api/screening/${AS}?country=DK`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ orgNumber: AS, country: 'DK', companyName: 'Nordlys Maskiner A/S' });
    const owner = r.body.subjects.find((s: { name: string }) => s.name === 'Kystholding ApS');
    expect(owner).toMatchObject({ kind: 'organisation', roles: ['shareholder'] });
    const person = r.body.subjects.find((s: { name: string }) => s.name === 'Henrik Bach');
    expect(person.roles).toContain('shareholder');
    const matched = r.body.matches.map((m: { subject: string; entityId: string }) => [m.subject, m.entityId]);
    expect(matched).toContainEqual([owner.id, 'dk-org']);
    expect(matched).toContainEqual([person.id, 'dk-person']);
    expect((await get(`/api/screening/35540009?country=DK`)).status).toBe(400);
  });
});

describe('DK in coverage, health and municipalities', () => {
  it('coverage counts Danish companies, roles, P-units, owners and financials with their sources', async () => {
    await runJob(server.ctx, 'coverage', {}, quiet);
    const r = await http(server.url, 'GET', '/api/coverage');
    expect(r.status).toBe(200);
    const cell = (category: string) =>
      r.body.rows.find((x: { country: string; category: string }) => x.country === 'DK' && x.category === category);
    expect(cell('companies')).toMatchObject({ records: 5, sources: ['cvr'] });
    expect(cell('companies').lastSync).not.toBeNull();
    expect(cell('shareholders')).toMatchObject({ records: 3, companiesWith: 2, share: 0.4, sources: ['cvr'] });
    expect(cell('financials')).toMatchObject({ records: 1, companiesWith: 1, sources: ['cvr-financials'] });
    expect(cell('financials').lastSync).not.toBeNull();
    expect(cell('subUnits').records).toBe(4); // every P-unit, the closed one included
    expect(cell('roles').records).toBeGreaterThan(0);
  });

  it('health lists the cvr and cvr-financials data sources', async () => {
    const r = await http(server.url, 'GET', '/api/health', { headers: { 'x-sync-secret': SECRET } });
    expect(r.status).toBe(200);
    expect(r.body.dataSources.cvr).toMatchObject({ status: 'ok', recordsProcessed: 5 });
    expect(r.body.dataSources['cvr-financials']).toMatchObject({ status: 'ok' });
  });

  it('lists the 98 Danish kommuner in 5 regioner', async () => {
    const r = await get('/api/municipalities?country=DK');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(5);
    expect(r.body.data.flatMap((g: { municipalities: unknown[] }) => g.municipalities)).toHaveLength(98);
  });
});

describe('DK in the MCP ownership tools', () => {
  async function connect(): Promise<Client> {
    const client = new Client({ name: 'mcp-dk', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  it('get_shareholders, get_ownership_network and get_corporate_group answer for DK', async () => {
    const client = await connect();
    const ok = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
      return r.structuredContent as Record<string, any>;
    };
    const owners = await ok('get_shareholders', { orgNumber: AS, country: 'DK', includePersons: true });
    expect(owners.data.map((o: { shareholderName: string }) => o.shareholderName)).toEqual([
      'Kystholding ApS',
      'Henrik Bach',
    ]);
    expect(await ok('get_ownership_network', { shareholderOrgNumber: APS, country: 'DK' })).toMatchObject({
      shareholderOrgNumber: APS,
      data: [{ orgNumber: AS, ownershipPctRange: { low: 66.67, high: 90 } }],
    });
    expect(await ok('get_corporate_group', { orgNumber: AS, country: 'DK' })).toMatchObject({
      root: { orgNumber: APS, children: [{ orgNumber: AS }] },
      totalMembers: 2,
    });
    const fi = (await client.callTool({
      name: 'get_shareholders',
      arguments: { orgNumber: AS, country: 'FI' },
    })) as CallToolResult;
    expect(fi.isError).toBe(true);
  });
});

describe('DK ownership events (issue 26)', () => {
  const ownershipEvents = async (after: number) =>
    (await server.ctx.repos.eventLog.list(after, { categories: ['ownership'], country: 'DK' }, 100)).events;

  it('a first load appends none; a changed owner band appends one owners_changed event; a re-run none', async () => {
    expect(await ownershipEvents(0)).toEqual([]);
    const { lastSeq } = await server.ctx.repos.eventLog.bounds();
    const original = cvr.hits;
    // The person's stake in the A/S moves from the 10 % band to the 20 % band.
    cvr.hits = fixture
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l.includes(`"cvrNummer": ${AS},`) ? l.replace('"vaerdi": "0.1"', '"vaerdi": "0.2"') : l));
    await runJob(server.ctx, 'cvr', {}, quiet);
    const events = await ownershipEvents(lastSeq);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ orgNumber: AS, type: 'owners_changed', fieldsChanged: ['owners'] });
    const [before, after] = [events[0].before.owners as string[], events[0].after.owners as string[]];
    expect(before).toHaveLength(2);
    expect(after).toHaveLength(2);
    expect(after).not.toEqual(before);
    expect(JSON.stringify(events[0])).not.toMatch(/\d{2}-\d{2}-\d{4}|\d{6}-\d{4}/); // no birth date or CPR
    const { lastSeq: next } = await server.ctx.repos.eventLog.bounds();
    await runJob(server.ctx, 'cvr', {}, quiet);
    expect(await ownershipEvents(next)).toEqual([]);
    cvr.hits = original;
  });
});
