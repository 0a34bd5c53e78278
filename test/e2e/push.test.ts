// POST /api/push/{destinationName} end to end: live-fetched records from a fake brreg, sent
// to a local receiver (ALLOW_PRIVATE_DESTINATIONS=true so loopback is reachable).
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { generateCompany, orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { closedPort, startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let brreg: FakeBrreg;
let receiver: WebhookReceiver;
let server: TestServer;
let key: string;

const HUNDRED = Array.from({ length: 100 }, (_, i) => orgNumberFor(i));
const LICENSED = HUNDRED[3];
const TOKEN = 'Bearer push-token-7Hq2';
const SIGNING = 'whsec_' + Buffer.alloc(32, 9).toString('base64');

beforeAll(async () => {
  brreg = await startFakeBrreg();
  for (let i = 0; i < 110; i++) brreg.add(generateCompany(i, 11));
  receiver = await startWebhookReceiver();
  server = await startServer({
    env: { ALLOW_PRIVATE_DESTINATIONS: 'true' },
    overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 15_000 }) } },
  });
  key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
  // The licence import is another area's: one row written directly, as an import would.
  await server.ctx.store.pool.query(
    `INSERT INTO licenses (license_number, register_type, org_number, venue_name, license_type_code, license_type_description, content_hash)
     VALUES ('LIC-1', 'skjenkebevilling', $1, 'Testkroa', '01SKJE', 'Skjenkebevilling', 'h1')`,
    [LICENSED],
  );
  for (const [name, config] of Object.entries({
    crm: {
      url: `${receiver.url}/hooks/crm?src=ncd`,
      method: 'PATCH',
      headers: { Authorization: TOKEN, 'X-Tenant': 'acme' },
    },
    signed: { url: `${receiver.url}/signed`, signingSecret: SIGNING },
    refused: { url: `http://127.0.0.1:${await closedPort()}/` },
  })) {
    const r = await http(server.url, 'POST', '/api/destinations', { key, body: { name, type: 'webhook', config } });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await brreg?.close();
});
beforeEach(() => receiver.reset());

const push = (name: string, orgNumbers: unknown, k = key) =>
  http(server.url, 'POST', `/api/push/${name}`, { key: k, body: { orgNumbers } });

describe('a delivered push', () => {
  it('sends 100 companies with all four relations in exactly one request', async () => {
    const r = await push('crm', HUNDRED);
    expect(r.status).toBe(200);
    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;

    // The request: method, URL, merged headers, nothing of ours beyond them.
    expect(req.method).toBe('PATCH');
    expect(req.url).toBe('/hooks/crm?src=ncd');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe(TOKEN);
    expect(req.headers['x-tenant']).toBe('acme');
    expect(req.headers['webhook-signature']).toBeUndefined();
    expect(Number(req.headers['content-length'])).toBe(Buffer.byteLength(req.body));

    // The payload: { companies: [...] }, full records, no secrets.
    const payload = JSON.parse(req.body);
    expect(Object.keys(payload)).toEqual(['companies']);
    const companies: Record<string, any>[] = payload.companies;
    expect(req.body).not.toContain('push-token');
    expect(req.body).not.toContain('acme');
    for (const c of companies) {
      expect(c).toMatchObject({ orgNumber: expect.any(String), country: 'NO', name: expect.any(String) });
      for (const rel of ['financials', 'roles', 'subUnits', 'licenses']) expect(Array.isArray(c[rel])).toBe(true);
    }
    expect(companies.some((c) => c.financials.length > 0 && typeof c.financials[0].revenue === 'number')).toBe(true);
    expect(companies.some((c) => c.roles.length > 0 && c.roles[0].roleTypeCode)).toBe(true);
    expect(companies.some((c) => c.subUnits.length > 0 && c.subUnits[0].orgNumber)).toBe(true);
    const licensed = companies.find((c) => c.orgNumber === LICENSED)!;
    expect(licensed.licenses).toEqual([
      expect.objectContaining({ licenseNumber: 'LIC-1', licenseTypeCode: '01SKJE', venueName: 'Testkroa' }),
    ]);

    // The result accounts for every number asked for.
    expect(r.body).toEqual({
      destination: 'crm',
      requested: 100,
      delivered: companies.length,
      notFound: expect.any(Array),
      unavailable: [],
      errors: [],
    });
    expect(companies.length + r.body.notFound.length).toBe(100);
    expect(companies.length).toBeGreaterThan(90);
  });

  it('does not deduplicate across calls: the same push twice is two requests', async () => {
    await push('crm', HUNDRED.slice(0, 2));
    await push('crm', HUNDRED.slice(0, 2));
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[0].body).toBe(receiver.requests[1].body);
  });

  it('counts as one request against the quotas', async () => {
    const usage = async () => (await http(server.url, 'GET', '/api/keys/usage', { key })).body.usage.today as number;
    const before = await usage();
    await push('crm', HUNDRED);
    expect(await usage()).toBe(before + 1);
  });

  it('signs the body with Standard Webhooks headers when a secret is set', async () => {
    const r = await push('signed', HUNDRED.slice(0, 3));
    expect(r.body.errors).toEqual([]);
    const [req] = receiver.requests;
    expect(req.method).toBe('POST');
    expect(req.headers['webhook-id']).toMatch(/^msg_/);
    const verified = new Webhook(SIGNING).verify(req.body, req.headers as Record<string, string>) as {
      companies: unknown[];
    };
    expect(verified.companies).toHaveLength(3);
    expect(req.body).not.toContain(SIGNING.slice(6));
  });
});

describe('a failed delivery is reported, not thrown', () => {
  it('a 500 lands in errors[] with the status and without the receiver body', async () => {
    receiver.reset({
      kind: 'status',
      status: 500,
      body: 'RECEIVER-INTERNAL-DETAILS',
      headers: { 'x-debug': 'RECEIVER-HEADER' },
    });
    const r = await push('crm', HUNDRED.slice(0, 5));
    expect(r.status).toBe(200);
    expect(receiver.requests).toHaveLength(1);
    expect(r.body).toMatchObject({ requested: 5, delivered: 0 });
    expect(r.body.errors).toEqual([
      { batch: 1, class: 'http_status', status: 500, message: 'The destination answered with a non-2xx status' },
    ]);
    expect(JSON.stringify(r.body)).not.toMatch(/RECEIVER-/);
  });

  it('a refused connection lands in errors[] as network', async () => {
    const r = await push('refused', HUNDRED.slice(0, 2));
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([{ batch: 1, class: 'network', message: 'The destination could not be reached' }]);
    expect(r.body.delivered).toBe(0);
  });

  it('a receiver that never answers times out after 10 s and lands in errors[]', async () => {
    receiver.reset({ kind: 'hang' });
    const started = Date.now();
    const r = await push('crm', HUNDRED.slice(0, 2));
    const elapsed = Date.now() - started;
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([{ batch: 1, class: 'timeout', message: expect.stringMatching(/10 seconds/) }]);
    expect(receiver.requests).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(9_500);
    expect(elapsed).toBeLessThan(20_000);
  });
});

describe('refusals', () => {
  it('403 for a key whose tier cannot push, without charging the quota', async () => {
    const free = await createKey(server);
    const r = await push('crm', HUNDRED.slice(0, 1), free.raw);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('push_not_allowed');
    expect((await http(server.url, 'GET', '/api/keys/usage', { key: free.raw })).body.usage.today).toBe(0);
    expect(receiver.hits).toBe(0);
  });

  it('400 with details for bad org numbers, none or too many', async () => {
    const bad = await push('crm', [HUNDRED[0], '123456789', '12345678', 'abcdefghi']);
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual([
      'body.orgNumbers.1',
      'body.orgNumbers.2',
      'body.orgNumbers.3',
    ]);
    expect((await push('crm', [])).status).toBe(400);
    expect(
      (
        await push(
          'crm',
          Array.from({ length: 101 }, (_, i) => orgNumberFor(i)),
        )
      ).status,
    ).toBe(400);
    expect((await http(server.url, 'POST', '/api/push/crm', { key, body: {} })).body.details).toEqual([
      { path: 'body.orgNumbers', message: 'is required' },
    ]);
    expect(receiver.hits).toBe(0);
  });

  it("404 for a missing destination and for another project's", async () => {
    expect((await push('nope', HUNDRED.slice(0, 1))).body.code).toBe('destination_not_found');
    const other = await createKey(server, { tier: 'pro' });
    const r = await push('crm', HUNDRED.slice(0, 1), other.raw);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('destination_not_found');
    expect(receiver.hits).toBe(0);
  });

  it('an inactive destination refuses with destination_inactive until reactivated', async () => {
    await http(server.url, 'PUT', '/api/destinations/crm', { key, body: { isActive: false } });
    const r = await push('crm', HUNDRED.slice(0, 1));
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'destination_inactive', error: expect.stringMatching(/inactive/) });
    expect(receiver.hits).toBe(0);
    await http(server.url, 'PUT', '/api/destinations/crm', { key, body: { isActive: true } });
    expect((await push('crm', HUNDRED.slice(0, 1))).body.delivered).toBe(1);
  });
});
