// POST /api/screening/match and the MCP tool screen_entity, on a list loaded through the real
// `sanctions` job: the yente-shaped answer, validation (400 with details[]), one count per call
// whatever the number of entities, and the audit trail (list versions, algorithm version).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALGORITHM } from '../../src/domain/screening/rank.ts';
import { runJob } from '../../src/jobs/runner.ts';
import '../../src/jobs/sanctions.ts';
import { fillers, ftm, ndjson, removeListFiles, writeListFile, type FtmInput } from '../fixtures/screening/ftm.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;
const quiet = () => undefined;

const LIST: FtmInput[] = [
  {
    id: 'NK-sorokin',
    schema: 'Person',
    caption: 'Oleg Viktorovich SOROKIN',
    aliases: ['Олег Викторович Сорокин'],
    birthDate: '1961-03',
    country: 'ru',
    topics: ['sanction'],
    datasets: ['eu_fsf'],
  },
  { id: 'NK-haddad', schema: 'Person', caption: 'Samir Haddad', country: 'sy', datasets: ['un_sc_sanctions'] },
  {
    id: 'NK-polarstar',
    schema: 'Company',
    caption: 'Polarstar Shipping Aktiengesellschaft',
    country: 'de',
    datasets: ['us_ofac_sdn'],
  },
  ...fillers(0, 20),
];

const match = (body: unknown, k = key) => http(server.url, 'POST', '/api/screening/match', { key: k, body });
const usage = async (k: string) =>
  (await http(server.url, 'GET', '/api/keys/usage', { key: k })).body.usage.today as number;

beforeAll(async () => {
  server = await startServer({});
  key = (await createKey(server, { tier: 'internal' })).raw;
  await runJob(
    server.ctx,
    'sanctions',
    { file: writeListFile('m.ftm.json', ndjson(LIST.map(ftm))), list: 'm-e2e' },
    quiet,
  );
});
afterAll(async () => {
  await server?.close();
  removeListFiles();
});

describe('POST /api/screening/match', () => {
  it('answers in the shape of yente /match, with features, explanation and the audit trail', async () => {
    const r = await match({
      queries: {
        a: { schema: 'Person', name: 'Oleg Sorokin', birthDate: '1961-03-14', nationality: 'RU' },
        b: { schema: 'Person', name: 'سمير حداد' },
        c: { schema: 'Company', name: 'Polarstar Shipping AG' },
        d: { schema: 'Organization', name: 'Oleg Sorokin' },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ threshold: 0.75, limit: 5, algorithm: ALGORITHM });
    expect(r.body.lists).toEqual([
      { name: 'm-e2e', version: expect.any(String), entityCount: 23, lastSync: expect.any(String) },
    ]);
    expect(Number.isNaN(Date.parse(r.body.lists[0].lastSync))).toBe(false);
    expect(Object.keys(r.body.responses)).toEqual(['a', 'b', 'c', 'd']);

    const [a] = r.body.responses.a.results;
    expect(r.body.responses.a.query).toEqual({
      schema: 'Person',
      name: 'Oleg Sorokin',
      birthDate: '1961-03-14',
      nationality: 'RU',
    });
    expect(a).toMatchObject({
      id: 'NK-sorokin',
      caption: 'Oleg Viktorovich SOROKIN',
      schema: 'Person',
      list: 'm-e2e',
      listVersion: r.body.lists[0].version,
      datasets: ['eu_fsf'],
      topics: ['sanction'],
      match: true,
      features: { birthYear: 0.08, country: 0.03 },
    });
    expect(a.score).toBeGreaterThanOrEqual(0.75);
    expect(a.explanation.tokens).toEqual(
      expect.arrayContaining([{ query: 'sorokin', candidate: 'sorokin', similarity: 1, how: 'exact' }]),
    );
    expect(a.explanation.unmatched.candidate).toEqual(['viktorovich']);

    // Arabic script against a Latin listed name: found, and said to be compared across scripts.
    const [b] = r.body.responses.b.results;
    expect(b).toMatchObject({ id: 'NK-haddad', match: true });
    expect(b.matchType).not.toBe('exact');
    expect(b.explanation.tokens.map((t: { how: string }) => t.how)).toContain('script');

    expect(r.body.responses.c.results[0]).toMatchObject({ id: 'NK-polarstar', match: true });
    // An organisation query never meets a listed person.
    expect(r.body.responses.d).toMatchObject({ total: 0, matches: 0, results: [] });
  });

  it('reports near misses with match: false, and moves the flag with the threshold', async () => {
    const q = { queries: { x: { schema: 'Person', name: 'Oleg Sorokina' } } };
    const low = (await match({ ...q, threshold: 0.5 })).body.responses.x.results[0];
    const high = (await match({ ...q, threshold: 0.99 })).body.responses.x.results[0];
    expect(low).toMatchObject({ id: 'NK-sorokin', match: true });
    expect(high).toMatchObject({ id: 'NK-sorokin', match: false, score: low.score });
  });

  it('answers 400 with details[] for bad input', async () => {
    const cases: [unknown, string][] = [
      [{ queries: {} }, 'queries'],
      [{}, 'queries'],
      [{ queries: { a: { schema: 'Vessel', name: 'X' } } }, 'schema'],
      [{ queries: { a: { schema: 'Person', name: '' } } }, 'name'],
      [{ queries: { a: { schema: 'Person', name: 'Ola', birthDate: '12.03.1961' } } }, 'birthDate'],
      [{ queries: { a: { schema: 'Company', name: 'Polarstar', birthDate: '1961' } } }, 'birthDate'],
      [{ queries: { a: { schema: 'Person', name: 'Ola', nationality: 'Norway' } } }, 'nationality'],
      [{ queries: { a: { schema: 'Person', name: '...' } } }, 'name'],
      [{ queries: { a: { schema: 'Person', name: 'Ola' } }, threshold: 2 }, 'threshold'],
      [{ queries: { a: { schema: 'Person', name: 'Ola' } }, limit: 0 }, 'limit'],
      // Keys outside the documented pattern are refused, whatever their value (a fuzzed null once got through).
      [{ queries: { 'a b': { schema: 'Person', name: 'Ola' } } }, 'queries'],
      [{ queries: { '': 'M)Ds', ':$}': null } }, 'queries'],
      [{ queries: { a: null } }, 'queries.a'],
      [
        {
          queries: Object.fromEntries(
            Array.from({ length: 101 }, (_, i) => [`q${i}`, { schema: 'Person', name: 'Ola' }]),
          ),
        },
        'queries',
      ],
    ];
    for (const [body, field] of cases) {
      const r = await match(body);
      expect({ body, status: r.status }).toEqual({ body, status: 400 });
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.details.map((d: { path: string }) => d.path).join(' ')).toContain(field);
    }
  });

  it('counts one request whatever the number of entities, and needs a key', async () => {
    const { raw } = await createKey(server, { tier: 'internal' });
    const before = await usage(raw);
    const queries = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`q${i}`, { schema: 'Person', name: `Oleg Sorokin ${i}` }]),
    );
    const r = await match({ queries }, raw);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.responses)).toHaveLength(100);
    expect(await usage(raw)).toBe(before + 1);
    expect((await http(server.url, 'POST', '/api/screening/match', { body: { queries } })).status).toBe(401);
  });

  it('states the algorithm version and list versions on company screening too (documented)', async () => {
    const doc = (await http(server.url, 'GET', '/docs/json')).body;
    const company = doc.paths['/api/screening/{orgNumber}'].get.responses['200'].content['application/json'].schema;
    expect(company.required).toEqual(expect.arrayContaining(['algorithm', 'lists']));
    expect(doc.paths['/api/screening/match'].post).toBeDefined();
  });
});

describe('MCP screen_entity', () => {
  it('mirrors POST /api/screening/match and reports bad arguments as a tool error', async () => {
    const client = new Client({ name: 'screen-entity-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const ok = (await client.callTool({
        name: 'screen_entity',
        arguments: { queries: { s: { schema: 'Person', name: 'Олег Сорокин', birthDate: '1961' } } },
      })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      const body = ok.structuredContent as any;
      expect(body).toMatchObject({ algorithm: ALGORITHM, lists: [{ name: 'm-e2e' }] });
      expect(body.responses.s.results[0]).toMatchObject({ id: 'NK-sorokin', match: true });
      expect(body.responses.s.results[0].matchType).not.toBe('fuzzy');

      const bad = (await client.callTool({
        name: 'screen_entity',
        arguments: { queries: { s: { schema: 'Person', name: 'Ola', nationality: 'Norway' } } },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
