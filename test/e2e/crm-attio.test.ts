// Attio destinations end to end: the real server pushing live-fetched records (fake brreg) to a
// local Attio (test/fakes/attio.ts, built to Attio's documented formats) — asserts keyed by the
// organisation number, fillIfEmpty, a 429 with an HTTP-date Retry-After, Attio down, and
// enrich-on-write from a signed record.created webhook without a loop.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { generateCompany, orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { startFakeAttio, type FakeAttio } from '../fakes/attio.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let brreg: FakeBrreg;
let attio: FakeAttio;
let server: TestServer;
let key: string;
let HUNDRED: string[];
let destinationId: string;
const WEBHOOK_SECRET = 'attio-webhook-secret-1f2e3d';

beforeAll(async () => {
  brreg = await startFakeBrreg();
  for (let i = 0; i < 130; i++) brreg.add(generateCompany(i, 11));
  attio = await startFakeAttio();
  server = await startServer({
    env: { ATTIO_BASE_URL: attio.url },
    overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 15_000 }) } },
  });
  key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
  const all = Array.from({ length: 130 }, (_, i) => orgNumberFor(i));
  const known = await server.services.companies.enrich(all.map((orgNumber) => ({ orgNumber, country: 'NO' as const })));
  HUNDRED = known.data.map((c) => c.orgNumber).slice(0, 100);
  const r = await http(server.url, 'POST', '/api/destinations', {
    key,
    body: {
      name: 'attio',
      type: 'attio',
      config: {
        apiKey: attio.apiKey,
        webhookSecret: WEBHOOK_SECRET,
        fieldMappings: { name: { property: 'name', rule: 'fillIfEmpty' } },
      },
    },
  });
  expect(r.status).toBe(201);
  expect(JSON.stringify(r.body)).not.toContain(attio.apiKey);
  expect(r.body.config).toMatchObject({ orgNumberAttribute: 'org_number', webhookSigning: true });
  destinationId = r.body.id;
});
afterAll(async () => {
  await server?.close();
  await attio?.close();
  await brreg?.close();
});
beforeEach(() => {
  attio.requests = [];
  attio.scripted = [];
  attio.down = false;
});

const push = (body: unknown) => http(server.url, 'POST', '/api/push/attio', { key, body });
const recordOf = async (n: string) =>
  (await server.services.companies.enrich([{ orgNumber: n, country: 'NO' }])).data[0];

describe('push to Attio', () => {
  it('asserts 100 companies by organisation number: created 100, then updated 100, one assert each', async () => {
    const first = await push({ orgNumbers: HUNDRED });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 100, updated: 0, skipped: 0, failed: 0, errors: [] });
    const calls = attio.requests.map((r) => `${r.method} ${r.path}`);
    // First use: the attribute list, each missing attribute made once, one query, 100 asserts.
    expect(calls[0]).toBe('GET /v2/objects/companies/attributes');
    const made = attio.calls(/\/attributes$/, 'POST').map((r) => JSON.parse(r.body).data);
    expect(made).toContainEqual(expect.objectContaining({ api_slug: 'org_number', type: 'text', is_unique: true }));
    expect(calls.filter((c) => c === 'POST /v2/objects/companies/records/query')).toHaveLength(1);
    expect(calls.filter((c) => c === 'PUT /v2/objects/companies/records')).toHaveLength(100);
    expect(attio.calls(/\/records$/, 'PUT').every((r) => r.query.get('matching_attribute') === 'org_number')).toBe(
      true,
    );
    expect(attio.records.size).toBe(100);

    attio.requests = [];
    const second = await push({ orgNumbers: HUNDRED });
    expect(second.body).toMatchObject({ created: 0, updated: 100, failed: 0 });
    expect(attio.requests).toHaveLength(101); // one query, 100 asserts
    expect(attio.records.size).toBe(100);

    const rec = await recordOf(HUNDRED[0]);
    const a = attio.by('org_number', rec.orgNumber)!;
    expect(attio.first(a, 'name')).toBe(rec.name);
    expect(attio.first(a, 'legal_form')).toBe(rec.orgFormCode);
    if (rec.employeeCount !== null) expect(attio.first(a, 'employee_count')).toBe(rec.employeeCount);
    if (rec.foundingDate) expect(attio.first(a, 'foundation_date')).toBe(rec.foundingDate);
    if (rec.businessAddressStreet)
      expect(attio.first(a, 'primary_location')).toMatchObject({
        line_1: rec.businessAddressStreet,
        country_code: 'NO',
      });
  });

  it('keeps a fillIfEmpty name set by hand in Attio', async () => {
    const a = attio.by('org_number', HUNDRED[3])!;
    attio.write(a, { name: 'Named by hand' }, 'workspace-member');
    const r = await push({ orgNumbers: [HUNDRED[3]] });
    expect(r.body).toMatchObject({ updated: 1, failed: 0 });
    expect(attio.first(attio.by('org_number', HUNDRED[3]), 'name')).toBe('Named by hand');
    const put = JSON.parse(attio.calls(/\/records$/, 'PUT')[0].body).data.values;
    expect(put.name).toBeUndefined();
    expect(put.org_number).toBe(HUNDRED[3]);
  });

  it('waits out a 429 until the Retry-After date', async () => {
    attio.scripted.push({
      status: 429,
      match: /\/records$/,
      headers: { 'retry-after': new Date(Date.now() + 1500).toUTCString() },
      body: {
        status_code: 429,
        type: 'rate_limit_error',
        code: 'rate_limit_exceeded',
        message: 'Rate limit exceeded, please try again later',
      },
    });
    const r = await push({ orgNumbers: [HUNDRED[4]] });
    expect(r.body).toMatchObject({ updated: 1, failed: 0 });
    const puts = attio.calls(/\/records$/, 'PUT');
    expect(puts).toHaveLength(2);
    expect(puts[1].at - puts[0].at).toBeGreaterThanOrEqual(400);
  });

  it('fails clearly when Attio stays down', async () => {
    attio.down = true;
    const r = await push({ orgNumbers: HUNDRED.slice(0, 2) });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 'crm_unavailable', error: expect.stringMatching(/Attio answered 503/) });
  });
});

describe('Attio enrich-on-write', () => {
  it('a signed record.created with a new organisation number is filled in within 10 s, and the echo writes nothing', async () => {
    const n = orgNumberFor(120);
    attio.webhook = {
      url: `${server.url}/api/integrations/attio/webhook?destination=${destinationId}`,
      secret: WEBHOOK_SECRET,
    };
    const started = Date.now();
    const rec = attio.createByHand({ org_number: n });
    const status = await attio.send([
      {
        event_type: 'record.created',
        id: { workspace_id: rec.id.workspace_id, object_id: rec.id.object_id, record_id: rec.id.record_id },
        actor: { type: 'workspace-member', id: 'm1' },
      },
    ]);
    expect(status).toBe(200);
    const expected = await recordOf(n);
    await expect
      .poll(() => attio.first(attio.records.get(rec.id.record_id), 'name'), { timeout: 10_000, interval: 100 })
      .toBe(expected.name);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(attio.first(attio.records.get(rec.id.record_id), 'enrichment_status')).toBe('enriched');
    // Our PATCH made Attio send record.updated events; they are looked at and write nothing.
    await expect
      .poll(
        async () =>
          (await server.ctx.store.pool.query(`SELECT count(*)::int AS n FROM crm_writebacks WHERE status = 'pending'`))
            .rows[0].n,
        { timeout: 10_000 },
      )
      .toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(attio.calls(/\/records\/[0-9a-f-]+$/, 'PATCH')).toHaveLength(1);
    attio.webhook = undefined;
  });

  it('an invalid number writes a status instead of failing silently', async () => {
    attio.webhook = {
      url: `${server.url}/api/integrations/attio/webhook?destination=${destinationId}`,
      secret: WEBHOOK_SECRET,
    };
    const rec = attio.createByHand({ org_number: '123456780' });
    await attio.send([
      { event_type: 'record.created', id: { ...rec.id }, actor: { type: 'workspace-member', id: 'm1' } },
    ]);
    await expect
      .poll(() => attio.first(attio.records.get(rec.id.record_id), 'enrichment_status'), { timeout: 10_000 })
      .toBe('invalid organisation number');
    attio.webhook = undefined;
  });

  it('a wrong signature answers 401 and queues nothing', async () => {
    attio.webhook = {
      url: `${server.url}/api/integrations/attio/webhook?destination=${destinationId}`,
      secret: WEBHOOK_SECRET,
    };
    const before = (await server.ctx.store.pool.query('SELECT count(*)::int AS n FROM crm_writebacks')).rows[0].n;
    const status = await attio.send(
      [{ event_type: 'record.created', id: { record_id: '00000000-0000-0000-0000-000000000000' } }],
      'not-the-secret',
    );
    expect(status).toBe(401);
    expect((await server.ctx.store.pool.query('SELECT count(*)::int AS n FROM crm_writebacks')).rows[0].n).toBe(before);
    attio.webhook = undefined;
  });
});
