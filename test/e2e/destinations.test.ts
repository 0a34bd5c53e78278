// Destinations CRUD over HTTP: project scoping, validation, masking, and encryption at rest.
// DNS answers come from a table (no network); private destinations are not allowed here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { tableResolver } from '../net/servers.ts';

let server: TestServer;
let key: string;
let otherKey: string;
const resolver = tableResolver({
  'hooks.example': ['93.184.216.34'],
  'alt.example': ['2606:2800:220:1::1'],
  'internal.example': ['93.184.216.34', '10.0.0.7'],
});

beforeAll(async () => {
  server = await startServer({ env: { ALLOW_PRIVATE_DESTINATIONS: 'false' }, overrides: { resolver } });
  // Unlimited rate: this file makes more calls in a minute than the pro tier allows.
  key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
  otherKey = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
});
afterAll(async () => {
  await server?.close();
});

const call = (method: string, path: string, body?: unknown, k = key) =>
  http(server.url, method, path, { key: k, body });
const create = (body: unknown, k = key) => call('POST', '/api/destinations', body, k);
const hook = (name: string, config: Record<string, unknown> = {}) => ({
  name,
  type: 'webhook',
  config: { url: 'https://hooks.example/in', ...config },
});

describe('POST /api/destinations', () => {
  it('creates a webhook and answers the masked record', async () => {
    const r = await create(
      hook('crm', {
        headers: { Authorization: 'Bearer create-token-1', 'X-Tenant': 'acme-1' },
        signingSecret: 'whsec_' + Buffer.alloc(24, 1).toString('base64'),
      }),
    );
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'crm',
      type: 'webhook',
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: r.body.createdAt,
      config: {
        url: 'https://hooks.example/in',
        method: 'POST',
        headers: { Authorization: '***', 'X-Tenant': '***' },
        signing: true,
      },
    });
    expect(JSON.stringify(r.body)).not.toMatch(/create-token-1|acme-1|whsec_/);
  });

  it('accepts plain http with a warning', async () => {
    const r = await create(hook('plain', { url: 'http://alt.example:8080/in', method: 'PUT' }));
    expect(r.status).toBe(201);
    expect(r.body.config).toMatchObject({
      url: 'http://alt.example:8080/in',
      method: 'PUT',
      headers: {},
      signing: false,
    });
    expect(r.body.warnings).toEqual([expect.stringMatching(/plain http/)]);
  });

  it('answers 409 for a name the project already uses, and lets another project use it', async () => {
    await create(hook('dup'));
    const again = await create(hook('dup'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'destination_name_taken',
      details: [{ path: 'body.name', message: expect.any(String) }],
    });
    expect((await create(hook('dup'), otherKey)).status).toBe(201);
  });

  it.each([
    ['missing config', { name: 'x', type: 'webhook' }, 'body.config'],
    ['unknown type', { name: 'x', type: 'salesforce', config: { url: 'https://hooks.example/' } }, 'body.type'],
    [
      'a webhook field on a CRM type',
      { name: 'x', type: 'attio', config: { url: 'https://hooks.example/' } },
      'body.config.url',
    ],
    ['bad name', hook('has space'), 'body.name'],
    ['bad method', hook('x', { method: 'GET' }), 'body.config.method'],
    ['non-string header value', hook('x', { headers: { 'X-A': 1 } }), 'body.config.headers.X-A'],
    ['CR/LF in a header value', hook('x', { headers: { 'X-A': 'v\r\nHost: evil' } }), 'body.config.headers.X-A'],
    ['reserved header', hook('x', { headers: { 'content-type': 'text/plain' } }), 'body.config.headers.content-type'],
    ['header name not a token', hook('x', { headers: { 'X A': 'v' } }), 'body.config.headers.X A'],
    ['header value over 1 KB', hook('x', { headers: { 'X-A': 'v'.repeat(1025) } }), 'body.config.headers.X-A'],
    [
      'more than 20 headers',
      hook('x', { headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-${i}`, 'v'])) }),
      'body.config.headers',
    ],
    ['weak signing secret', hook('x', { signingSecret: 'abc' }), 'body.config.signingSecret'],
    ['credentials in the URL', hook('x', { url: 'https://u:p@hooks.example/' }), 'body.config.url'],
    [
      'a name that resolves to a private address among public ones',
      hook('x', { url: 'https://internal.example/' }),
      'body.config.url',
    ],
    ['a private literal', hook('x', { url: 'https://10.1.2.3/' }), 'body.config.url'],
    ['a name that does not resolve', hook('x', { url: 'https://nowhere.example/' }), 'body.config.url'],
    ['a privileged non-HTTP port', hook('x', { url: 'http://hooks.example:25/' }), 'body.config.url'],
  ])('answers 400 for %s', async (_label, body, path) => {
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect((await call('GET', '/api/destinations/x')).status).toBe(404);
  });

  it('names the address problem without echoing what the host resolved to', async () => {
    const r = await create(hook('x', { url: 'https://internal.example/' }));
    expect(r.body.details).toEqual([{ path: 'body.config.url', message: expect.stringMatching(/public addresses/) }]);
    expect(JSON.stringify(r.body)).not.toContain('10.0.0.7');
  });
});

describe('reading, changing and deleting', () => {
  beforeAll(async () => {
    for (const name of ['zeta', 'alpha', 'Mid', 'beta']) expect((await create(hook(`list-${name}`))).status).toBe(201);
  });

  it("lists the project's destinations sorted by name, and only those", async () => {
    const mine = await call('GET', '/api/destinations');
    expect(mine.status).toBe(200);
    const names: string[] = mine.body.data.map((d: { name: string }) => d.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(names).toEqual(expect.arrayContaining(['list-zeta', 'list-alpha', 'list-Mid', 'list-beta', 'crm']));
    const theirs = await call('GET', '/api/destinations', undefined, otherKey);
    expect(theirs.body.data.map((d: { name: string }) => d.name)).toEqual(['dup']);
  });

  it("answers 404 for a missing destination and for another project's", async () => {
    expect((await call('GET', '/api/destinations/nope')).body.code).toBe('destination_not_found');
    for (const [method, body] of [['GET'], ['PUT', { isActive: false }], ['DELETE']] as const) {
      const r = await call(method, '/api/destinations/crm', body, otherKey);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('destination_not_found');
    }
    expect((await call('GET', '/api/destinations/crm')).body.isActive).toBe(true);
  });

  it('PUT changes isActive alone, keeping the config', async () => {
    const before = await call('GET', '/api/destinations/crm');
    const r = await call('PUT', '/api/destinations/crm', { isActive: false });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ isActive: false, config: before.body.config, createdAt: before.body.createdAt });
    expect(Date.parse(r.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.body.updatedAt));
    expect((await call('PUT', '/api/destinations/crm', { isActive: true })).body.isActive).toBe(true);
  });

  it('PUT with a config replaces the whole config', async () => {
    const r = await call('PUT', '/api/destinations/crm', {
      config: { url: 'https://alt.example/v2', method: 'PATCH', headers: { 'X-New': 'n' } },
    });
    expect(r.status).toBe(200);
    expect(r.body.config).toEqual({
      url: 'https://alt.example/v2',
      method: 'PATCH',
      headers: { 'X-New': '***' },
      signing: false,
    });
    expect((await call('GET', '/api/destinations/crm')).body.config).toEqual(r.body.config);
  });

  it('PUT validates like POST and needs at least one field', async () => {
    const bad = await call('PUT', '/api/destinations/crm', { config: { url: 'https://127.0.0.1/' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'body.config.url' })]);
    expect((await call('PUT', '/api/destinations/crm', {})).status).toBe(400);
    expect((await call('PUT', '/api/destinations/nope', { isActive: true })).status).toBe(404);
    expect((await call('GET', '/api/destinations/crm')).body.config.url).toBe('https://alt.example/v2');
  });

  it('DELETE answers 204, then 404', async () => {
    const r = await call('DELETE', '/api/destinations/list-beta');
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect((await call('GET', '/api/destinations/list-beta')).status).toBe(404);
    expect((await call('DELETE', '/api/destinations/list-beta')).status).toBe(404);
  });

  it('needs a key', async () => {
    expect((await http(server.url, 'GET', '/api/destinations')).status).toBe(401);
  });
});

describe('storage', () => {
  it('keeps no header value, signing secret or URL in clear anywhere in the database', async () => {
    const secrets = ['dump-header-value-Zq81', 'dump-signing-secret-Kx77', 'dump-path-token-Pp3'];
    const r = await create(
      hook('dump', {
        url: `https://hooks.example/in/${secrets[2]}`,
        headers: { Authorization: `Bearer ${secrets[0]}` },
        signingSecret: secrets[1],
      }),
    );
    expect(r.status).toBe(201);
    expect((await call('GET', '/api/destinations/dump')).body.config.url).toContain(secrets[2]);

    const pool = server.ctx.store.pool;
    const tables = await pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.rows.map((t) => t.table_name)).toContain('destinations');
    let scanned = 0;
    for (const { table_name } of tables.rows) {
      const rows = await pool.query<{ t: string }>(`SELECT t::text AS t FROM "${table_name}" t`);
      for (const { t } of rows.rows) {
        scanned++;
        for (const s of secrets) expect(t).not.toContain(s);
        expect(t).not.toContain(Buffer.from(secrets[0]).toString('base64'));
      }
    }
    expect(scanned).toBeGreaterThan(10);
    const stored = await pool.query(`SELECT config_key_id, config_iv FROM destinations WHERE name = 'dump'`);
    expect(stored.rows[0].config_key_id).toMatch(/^v1\./);
    expect(Buffer.from(stored.rows[0].config_iv, 'base64')).toHaveLength(12);
  });

  it('lists a config sealed under another SECRET_KEY with a warning instead of failing', async () => {
    const { destinationKeyring, sealConfig, destinationAad } = await import('../../src/push/config-crypto.ts');
    const { randomUUID } = await import('node:crypto');
    const id = randomUUID();
    const projectId = (await server.services.keyAuth.authenticate(key))!.projectId;
    const foreign = destinationKeyring('a-different-secret-key-of-32-characters-or-more');
    await server.ctx.repos.destinations.insert({
      id,
      projectId,
      name: 'sealed-elsewhere',
      type: 'webhook',
      isActive: true,
      config: sealConfig({ url: 'https://hooks.example/', method: 'POST', headers: {} }, destinationAad(id), foreign),
      now: new Date(),
    });
    const list = await call('GET', '/api/destinations');
    expect(list.status).toBe(200);
    const row = list.body.data.find((d: { name: string }) => d.name === 'sealed-elsewhere');
    expect(row.config).toBeUndefined();
    expect(row.warnings).toEqual([expect.stringMatching(/cannot be decrypted/)]);
    const one = await call('GET', '/api/destinations/sealed-elsewhere');
    expect(one.status).toBe(500);
    expect(one.body.code).toBe('destination_unreadable');
    const fixed = await call('PUT', '/api/destinations/sealed-elsewhere', {
      config: { url: 'https://hooks.example/new' },
    });
    expect(fixed.status).toBe(200);
    expect((await call('GET', '/api/destinations/sealed-elsewhere')).body.config.url).toBe('https://hooks.example/new');
  });
});
