// The typed client's register and integration methods against the real server: procurement
// (notices loaded from the recorded Doffin and TED fixtures by the procurement job), market
// context (the statistics job against the loopback fake of the four bureaus), the OpenRefine
// reconciliation URL (its manifest answers) and one MCP message. Each 4xx as NcdApiError.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NcdApiError, NcdClient } from '../../clients/js/src/index.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { startFakeStatistics, type FakeStatistics } from '../fakes/statistics.ts';
import { SAMPLE_PLACES } from '../fixtures/statistics/expected.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/procurement');
const quiet = () => undefined;
let stats: FakeStatistics;
let server: TestServer;
let client: NcdClient;

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as NcdApiError,
  );

beforeAll(async () => {
  stats = await startFakeStatistics();
  server = await startServer({ env: { ...stats.env } });
  client = new NcdClient({ baseUrl: server.url, apiKey: (await createKey(server, { tier: 'internal' })).raw });
  for (const dir of ['doffin', 'ted'])
    expect(await runJob(server.ctx, 'procurement', { file: path.join(FIXTURES, dir) }, quiet)).toMatchObject({
      status: 'ok',
    });
  expect((await runJob(server.ctx, 'statistics', {}, quiet)).details).toMatchObject({ failed: {} });
}, 240_000);
afterAll(async () => {
  await server?.close();
  await stats?.close();
});

describe('procurement', () => {
  it('procurement.search pages through every notice; procurement.get reads one', async () => {
    const all = await client.procurement.search({ limit: 2, sort: 'publishedAt', order: 'asc' }).toArray();
    // Six recorded notices, one of them the same procedure published on both portals.
    expect(all.length).toBe(5);
    expect(new Set(all.map((n) => n.noticeId)).size).toBe(all.length);
    const times = all.map((n) => Date.parse(n.publishedDate!));
    expect(times.every((t) => Number.isFinite(t))).toBe(true);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    for (const n of all) expect(['ACTIVE', 'CLOSED', 'AWARDED', 'CANCELLED']).toContain(n.status);

    const one = await client.procurement.get(all[0].noticeId);
    expect(one).toMatchObject({ noticeId: all[0].noticeId, title: all[0].title, status: all[0].status });
  });

  it('an unknown sort is an NcdApiError with details; an unknown notice a 404', async () => {
    const bad = await failure(client.procurement.search({ sort: 'price' as 'value' }).page());
    expect(bad).toBeInstanceOf(NcdApiError);
    expect(bad).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(bad!.details[0].path).toContain('sort');
    const missing = await failure(client.procurement.get('2026-999999'));
    expect(missing).toBeInstanceOf(NcdApiError);
    expect(missing!.status).toBe(404);
  });
});

describe('marketContext', () => {
  it("a municipality's figures as the bureau published them", async () => {
    const r = await client.marketContext({ country: 'NO', municipality: '0301' });
    const [population, year] = SAMPLE_PLACES.NO['0301'].population;
    expect(r.municipality).toMatchObject({ code: '0301', population: { value: population, year } });
    expect(r.industry).toBeNull();
  });

  it('an unknown country is an NcdApiError with details', async () => {
    const err = await failure(client.marketContext({ country: 'XX' as 'NO', municipality: '0301' }));
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(err!.details[0].path).toContain('country');
  });
});

describe('keys.reconcileUrl', () => {
  it("gives the key's reconciliation service URL, whose manifest answers", async () => {
    const { serviceUrl } = await client.keys.reconcileUrl();
    expect(serviceUrl.startsWith(`${server.config.baseUrl.replace(/\/$/, '')}/api/reconcile/`)).toBe(true);
    const manifest = await fetch(serviceUrl.replace(server.config.baseUrl.replace(/\/$/, ''), server.url));
    expect(manifest.status).toBe(200);
    expect(await manifest.json()).toMatchObject({ versions: expect.arrayContaining(['0.2']) });
  });

  it('without a key it is a 401 NcdApiError', async () => {
    const err = await failure(new NcdClient({ baseUrl: server.url }).keys.reconcileUrl());
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 401, code: 'missing_api_key' });
  });
});

describe('mcp.send', () => {
  it('answers one JSON-RPC message', async () => {
    const r = (await client.mcp.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as {
      jsonrpc: string;
      id: number;
      result: { tools: { name: string }[] };
    };
    expect(r).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(r.result.tools.map((t) => t.name)).toContain('lookup_company');
  });

  it('a message that is not JSON-RPC 2.0 is an NcdApiError with details', async () => {
    const err = await failure(client.mcp.send({ jsonrpc: '1.0' as '2.0', id: 1, method: 'ping' }));
    expect(err).toBeInstanceOf(NcdApiError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(err!.details.length).toBeGreaterThan(0);
  });
});
