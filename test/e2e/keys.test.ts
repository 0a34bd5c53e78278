import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWellFormedKey } from '../../src/domain/api-key.ts';
import { startSmtpReceiver } from '../fakes/smtp.ts';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let ipSeq = 0;
/** A distinct client address per test, so the 3-per-hour signup window never leaks between tests. */
const nextIp = () => `198.51.100.${++ipSeq}`;

const register = (body: unknown, ip = nextIp()) =>
  http(server.url, 'POST', '/api/keys/register', { body, headers: { 'x-forwarded-for': ip } });

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startServer({ env: { TRUST_PROXY: 'true', SMTP_URL: smtp.url, MAIL_FROM: 'keys@example.test' } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('POST /api/keys/register', () => {
  it('creates a free key, returns it once and e-mails the setup link', async () => {
    const res = await register({
      projectName: 'CRM sync',
      email: 'dev@example.com',
      description: 'Pulls firmographics',
    });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(isWellFormedKey(b.raw)).toBe(true);
    expect(b.raw.startsWith('ncd_')).toBe(true);
    expect(b.keyPrefix).toBe(b.raw.slice(0, 12));
    expect(b).toMatchObject({
      projectName: 'CRM sync',
      tier: 'free',
      limits: { rateLimitPerMinute: 20, dailyLimit: 500, monthlyLimit: 5000, maxPageSize: 20 },
    });
    expect(b.setupUrl).toBe(`${server.url}/setup?key=${b.raw}`);
    expect(res.headers.get('x-request-id')).toBeTruthy();

    const mail = smtp.messages.find((m) => m.to.includes('dev@example.com'));
    expect(mail).toBeDefined();
    expect(mail!.from).toBe('keys@example.test');
    const decoded = mail!.raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    expect(decoded).toContain(`/setup?key=${b.raw}`);

    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: b.raw });
    expect(usage.status).toBe(200);
  });

  it('serves the setup page for the link', async () => {
    const { body } = await register({ projectName: 'setup-page', email: 'p@example.com' });
    const res = await fetch(body.setupUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain(body.raw);
  });

  it.each([
    [{}, ['body.projectName', 'body.email']],
    [{ projectName: '', email: 'a@example.com' }, ['body.projectName']],
    [{ projectName: '   ', email: 'a@example.com' }, ['body.projectName']],
    [{ projectName: 'x'.repeat(101), email: 'a@example.com' }, ['body.projectName']],
    [{ projectName: 'ok', email: 'not-an-email' }, ['body.email']],
    [{ projectName: 'ok', email: `${'a'.repeat(310)}@example.com` }, ['body.email']],
    [{ projectName: 'ok', email: 'a@example.com', description: 'd'.repeat(501) }, ['body.description']],
    [{ projectName: 42, email: 'a@example.com' }, ['body.projectName']],
  ])('refuses %j with 400 and details naming %j', async (body, paths) => {
    const before = await server.ctx.store.pool.query('SELECT count(*)::int AS n FROM projects');
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(expect.arrayContaining(paths));
    const after = await server.ctx.store.pool.query('SELECT count(*)::int AS n FROM projects');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const res = await http(server.url, 'POST', '/api/keys/register', {
      rawBody: '{"projectName":',
      headers: { 'x-forwarded-for': nextIp() },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_json');
  });

  it('answers 409 for a projectName taken by an active key, ignoring case', async () => {
    expect((await register({ projectName: 'Fjordkraft Leads', email: 'a@example.com' })).status).toBe(201);
    const dup = await register({ projectName: 'fjordkraft leads', email: 'b@example.com' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('project_name_taken');
  });

  it('gives a bot that fills the honeypot a fake success and no key', async () => {
    const res = await register({
      projectName: 'honeypot-victim',
      email: 'bot@example.com',
      website: 'http://spam.example',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const rows = await server.ctx.store.pool.query(
      `SELECT count(*)::int AS n FROM projects WHERE name = 'honeypot-victim'`,
    );
    expect(rows.rows[0].n).toBe(0);
  });

  it('allows 3 registrations per client IP per hour, shared with access requests', async () => {
    const ip = nextIp();
    expect((await register({ projectName: 'ip-1', email: 'a@example.com' }, ip)).status).toBe(201);
    const access = await http(server.url, 'POST', '/api/access-requests', {
      body: { projectName: 'ip-2', email: 'a@example.com', requestedTier: 'pro', message: 'We need 100 rows per page' },
      headers: { 'x-forwarded-for': ip },
    });
    expect(access.status).toBe(201);
    expect(access.body.status).toBe('open');
    expect((await register({ projectName: 'ip-3', email: 'a@example.com' }, ip)).status).toBe(201);
    const fourth = await register({ projectName: 'ip-4', email: 'a@example.com' }, ip);
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('registration_limited');
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // another address is not affected
    expect((await register({ projectName: 'ip-5', email: 'a@example.com' })).status).toBe(201);
  });

  it('counts IPv6 clients per /64: new addresses in the same /64 share the limit, another /64 does not', async () => {
    const inNet = (n: number) => `2001:db8:77:1:${n.toString(16)}::${n}`;
    for (let i = 1; i <= 3; i++)
      expect((await register({ projectName: `v6-${i}`, email: 'six@example.com' }, inNet(i * 997))).status).toBe(201);
    const fourth = await register({ projectName: 'v6-4', email: 'six@example.com' }, inNet(4 * 997));
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('registration_limited');
    expect((await register({ projectName: 'v6-5', email: 'six@example.com' }, '2001:db8:77:2::1')).status).toBe(201);
  });

  it('never hands a key for a taken name to a new caller, not even with the same e-mail (recovery is by mail only)', async () => {
    const first = await register({ projectName: 'lost-answer', email: 'owner@example.com' });
    expect(first.status).toBe(201);
    const other = await register({ projectName: 'lost-answer', email: 'someone-else@example.com' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('project_name_taken');
    const again = await register({ projectName: 'Lost-Answer', email: 'OWNER@example.com' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('project_name_taken');
    expect(again.body.raw).toBeUndefined();
    expect(JSON.stringify(again.body)).not.toContain('ncd_');
  });

  it('refuses an API key pasted into a body field with 400 and stores nothing', async () => {
    const first = await register({ projectName: 'key-paste-source', email: 'k@example.com' });
    const raw = first.body.raw as string;
    const res = await register({ projectName: `crm ${raw}`, email: 'k@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual([expect.objectContaining({ path: expect.stringContaining('projectName') })]);
    expect(JSON.stringify(res.body)).not.toContain(raw);
    const again = await register({ projectName: 'crm', email: 'k@example.com' });
    expect(again.status).toBe(201);
  });
});

describe('POST /api/access-requests', () => {
  it('validates the body', async () => {
    const res = await http(server.url, 'POST', '/api/access-requests', {
      body: { projectName: 'x', email: 'a@example.com', requestedTier: 'platinum' },
      headers: { 'x-forwarded-for': nextIp() },
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('body.requestedTier');
  });
});

describe('POST /api/keys/rotate', () => {
  it('deactivates the presented key at once and keeps tier, limits and usage', async () => {
    const { body: first } = await register({ projectName: 'rotating', email: 'r@example.com' });
    await server.services.keys.setLimits(first.keyPrefix, { dailyLimit: 123 });
    for (let i = 0; i < 3; i++)
      expect((await http(server.url, 'GET', '/api/municipalities', { key: first.raw })).status).toBe(200);

    const rotated = await http(server.url, 'POST', '/api/keys/rotate', { key: first.raw });
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ projectName: 'rotating', tier: 'free', rotatedFrom: first.keyPrefix });
    expect(isWellFormedKey(rotated.body.raw)).toBe(true);
    expect(rotated.body.raw).not.toBe(first.raw);
    // The new key's setup link comes back, as at registration.
    expect(rotated.body.setupUrl).toBe(`${server.url}/setup?key=${encodeURIComponent(rotated.body.raw)}`);

    const old = await http(server.url, 'GET', '/api/keys/usage', { key: first.raw });
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('Invalid API key');
    expect((await http(server.url, 'POST', '/api/keys/rotate', { key: first.raw })).status).toBe(401);

    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: rotated.body.raw });
    expect(usage.status).toBe(200);
    expect(usage.body.usage.today).toBe(3);
    expect(usage.body.limits.dailyLimit).toBe(123);
    expect(usage.body.keyPrefix).toBe(rotated.body.keyPrefix);
  });

  it('answers 404 when the key was rotated away by a concurrent call', async () => {
    const { body } = await register({ projectName: 'double-rotate', email: 'r@example.com' });
    const caller = (await server.services.keyAuth.authenticate(body.raw))!;
    await server.services.keys.rotate(caller);
    await expect(server.services.keys.rotate(caller)).rejects.toMatchObject({ code: 'key_not_found', status: 404 });
  });
});

describe('authentication', () => {
  it.each([
    [undefined, 'Missing API key'],
    ['', 'Missing API key'],
    ['Basic abc', 'Missing API key'],
    ['Bearer', 'Missing API key'],
    ['Bearer ncd_notakey', 'Invalid API key'],
    ['Bearer ncd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'Invalid API key'],
  ])('Authorization %j -> 401 %s', async (header, message) => {
    const res = await http(server.url, 'GET', '/api/keys/usage', {
      headers: header === undefined ? {} : { authorization: header },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(message);
    expect(res.body.code).toBe(message === 'Missing API key' ? 'missing_api_key' : 'invalid_api_key');
  });

  it('refuses a well-formed key that was never issued', async () => {
    const { generateRawKey } = await import('../../src/domain/api-key.ts');
    const res = await http(server.url, 'GET', '/api/municipalities', { key: generateRawKey() });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Invalid API key');
  });
});

describe('storage of keys', () => {
  it('keeps no raw key anywhere in the database', async () => {
    const raws: string[] = [];
    for (let i = 0; i < 3; i++)
      raws.push((await register({ projectName: `scan-${i}`, email: 's@example.com' })).body.raw);
    const rotated = await http(server.url, 'POST', '/api/keys/rotate', { key: raws[0] });
    raws.push(rotated.body.raw);

    const pool = server.ctx.store.pool;
    const tables = await pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.rows.length).toBeGreaterThan(10);
    let scanned = 0;
    for (const { table_name } of tables.rows) {
      const rows = await pool.query<{ t: string }>(`SELECT t::text AS t FROM "${table_name}" t`);
      for (const { t } of rows.rows) {
        scanned++;
        for (const raw of raws) {
          expect(t).not.toContain(raw);
          expect(t).not.toContain(raw.slice(12)); // not even the secret part alone
        }
      }
    }
    expect(scanned).toBeGreaterThan(4);
    const hashes = await pool.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
    for (const { key_hash } of hashes.rows) expect(key_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
