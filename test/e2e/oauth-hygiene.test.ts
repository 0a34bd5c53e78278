// OAuth hygiene over real HTTP and the real store: authorization codes are limited per key and
// per client network and counted as requests; a reused code or refresh token ends its whole
// grant; expired codes and tokens are purged in bounded batches by the oauth-purge job.
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { postForm } from '../helpers/oauth-client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const REDIRECT = 'http://127.0.0.1:33418/callback';
const clock = new FakeClock(new Date());
let server: TestServer;
let clientId: string;
let ipSeq = 0;

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: 'true' }, overrides: { clock } });
  const reg = await http(server.url, 'POST', '/api/oauth/register', {
    body: { client_name: 'Hygiene agent', redirect_uris: [REDIRECT] },
  });
  expect(reg.status).toBe(201);
  clientId = reg.body.client_id;
});
afterAll(() => server?.close());

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The user consents with `key` from network `ip`: the status, the code (if any) and its verifier. */
async function consent(key: string, ip: string, scope?: string) {
  const { verifier, challenge } = pkce();
  const res = await fetch(`${server.url}/api/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      action: 'key',
      key,
      ...(scope ? { scope } : {}),
    }),
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  const code = location ? (new URL(location).searchParams.get('code') ?? undefined) : undefined;
  return { status: res.status, retryAfter: res.headers.get('retry-after'), code, verifier, html: await res.text() };
}

const exchange = (code: string, verifier: string) =>
  postForm(`${server.url}/api/oauth/token`, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
const refresh = (token: string) =>
  postForm(`${server.url}/api/oauth/token`, { grant_type: 'refresh_token', refresh_token: token, client_id: clientId });
/** One MCP tools/call with an access token: the tool result. */
async function callTool(access: string, name: string, args: Record<string, unknown>) {
  const r = await fetch(`${server.url}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${access}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await r.text();
  const json = JSON.parse(text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)![1]);
  return json.result as { isError?: boolean; content: { text: string }[] };
}

/** Whether an access token still works on the MCP endpoint. */
async function works(access: string) {
  const r = await fetch(`${server.url}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${access}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await r.text();
  return r.status === 200;
}
const usageToday = async (key: string) =>
  (await http(server.url, 'GET', '/api/keys/usage', { key })).body.usage.today as number;

describe('authorization codes are limited and counted', () => {
  it('per key: 20 codes in 10 minutes, then 429 with Retry-After; each code counts as a request', async () => {
    const key = (await createKey(server, { limits: { rateLimitPerMinute: 0 } })).raw;
    const before = await usageToday(key);
    const ip = () => `198.51.100.${++ipSeq}`; // a new network each time: the key's own window is tested
    for (let i = 0; i < 20; i++) {
      const r = await consent(key, ip());
      expect(r.status, r.html.slice(0, 200)).toBe(302);
      expect(r.code).toMatch(/^ncd_ac_/);
    }
    const refused = await consent(key, ip());
    expect(refused.status).toBe(429);
    expect(refused.code).toBeUndefined();
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // 20 codes and the usage reads themselves (1 each) were counted.
    expect((await usageToday(key)) - before).toBeGreaterThanOrEqual(20);
  });

  it('per client network: 60 codes in 10 minutes across keys, then 429', async () => {
    const keys = await Promise.all([0, 1, 2, 3].map(() => createKey(server, { limits: { rateLimitPerMinute: 0 } })));
    let issued = 0;
    let refused = 0;
    for (let i = 0; i < 64; i++) {
      const r = await consent(keys[i % 4].raw, '203.0.113.77');
      if (r.status === 302) issued++;
      else if (r.status === 429) refused++;
    }
    expect(issued).toBe(60);
    expect(refused).toBe(4);
  });

  it('a free key with its daily quota spent gets no code', async () => {
    const key = (await createKey(server, { limits: { rateLimitPerMinute: 0, dailyLimit: 1 } })).raw;
    expect((await consent(key, `198.51.100.${++ipSeq}`)).status).toBe(302);
    const spent = await consent(key, `198.51.100.${++ipSeq}`);
    expect(spent.status).toBe(429);
    expect(spent.code).toBeUndefined();
  });
});

describe('reuse ends the grant', () => {
  it('a refresh token used twice revokes the grant: the successor tokens stop working too', async () => {
    const key = (await createKey(server, { tier: 'internal' })).raw;
    const c = await consent(key, `198.51.100.${++ipSeq}`);
    const first = await exchange(c.code!, c.verifier);
    expect(first.status).toBe(200);
    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(await works(second.body.access_token)).toBe(true);
    // The old refresh token again (a thief's copy, say).
    const reused = await refresh(first.body.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    expect(await works(second.body.access_token)).toBe(false);
    expect((await refresh(second.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('an authorization code redeemed twice revokes the tokens it produced', async () => {
    const key = (await createKey(server, { tier: 'internal' })).raw;
    const c = await consent(key, `198.51.100.${++ipSeq}`);
    const tokens = await exchange(c.code!, c.verifier);
    expect(tokens.status).toBe(200);
    expect(await works(tokens.body.access_token)).toBe(true);
    const again = await exchange(c.code!, c.verifier);
    expect(again.body.error).toBe('invalid_grant');
    expect(await works(tokens.body.access_token)).toBe(false);
    expect((await refresh(tokens.body.refresh_token)).body.error).toBe('invalid_grant');
  });
});

describe('oauth-purge', () => {
  const count = async (table: string) =>
    Number(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(server.ctx.store.db))
        .rows[0].n,
    );

  it('deletes expired codes and tokens and their dead grants; live ones stay', async () => {
    const key = (await createKey(server, { tier: 'internal' })).raw;
    const c = await consent(key, `198.51.100.${++ipSeq}`);
    const live = await exchange(c.code!, c.verifier);
    expect(live.status).toBe(200);
    const before = { codes: await count('oauth_codes'), tokens: await count('oauth_tokens') };
    expect(before.codes).toBeGreaterThan(0);
    expect(before.tokens).toBeGreaterThan(0);
    // Past every code's and token's expiry (refresh tokens last longest, 30 days).
    clock.advance(31 * 86_400_000);
    const fresh = await consent(key, `198.51.100.${++ipSeq}`);
    const kept = await exchange(fresh.code!, fresh.verifier);
    expect(kept.status).toBe(200);
    const result = await runJob(server.ctx, 'oauth-purge', {}, () => undefined);
    expect(result.status).toBe('ok');
    expect(await count('oauth_codes')).toBe(1); // the fresh one, kept until it expires
    expect(await count('oauth_tokens')).toBe(2); // the fresh pair
    expect(await count('oauth_grants')).toBe(1);
    expect(await works(kept.body.access_token)).toBe(true);
  });
});

describe('odd input on the OAuth endpoints', () => {
  const CONTROLS = ['\u0000', '\u0001', '\u001b', '\u001f', '\u007f', '\r\n'];
  const count = async (table: string) =>
    Number(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(server.ctx.store.db))
        .rows[0].n,
    );
  const authorizeParams = () => {
    const { challenge } = pkce();
    return {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'read:companies',
    };
  };

  it('a control byte in any parameter of authorize, token, revoke or register is a 400, never a 5xx', async () => {
    const token = {
      grant_type: 'authorization_code',
      code: 'ncd_ac_' + 'a'.repeat(40),
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: 'v'.repeat(43),
      refresh_token: 'ncd_rt_' + 'a'.repeat(40),
      resource: `${server.url}/api/mcp`,
    };
    const tried: string[] = [];
    for (const c of CONTROLS) {
      for (const name of Object.keys(authorizeParams())) {
        const p = { ...authorizeParams(), [name]: `x${c}y` };
        const get = await fetch(`${server.url}/api/oauth/authorize?${new URLSearchParams(p)}`, { redirect: 'manual' });
        expect(get.status, `GET authorize ${name} ${JSON.stringify(c)}`).toBe(400);
        expect(get.headers.get('location')).toBeNull();
        const post = await fetch(`${server.url}/api/oauth/authorize`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...p, action: 'register', projectName: `p${c}`, email: `a${c}@x.example` }),
          redirect: 'manual',
        });
        expect(post.status, `POST authorize ${name}`).toBe(400);
        tried.push(`authorize.${name}`);
      }
      for (const grant of ['authorization_code', 'refresh_token']) {
        for (const name of Object.keys(token)) {
          const r = await postForm(`${server.url}/api/oauth/token`, { ...token, grant_type: grant, [name]: `x${c}y` });
          expect(r.status, `token ${grant} ${name}`).toBeGreaterThanOrEqual(400);
          expect(r.status, `token ${grant} ${name}`).toBeLessThan(500);
          expect(r.body.error).toEqual(expect.any(String));
          tried.push(`token.${name}`);
        }
      }
      const revoke = await postForm(`${server.url}/api/oauth/revoke`, { token: `ncd_rt_${c}` });
      expect(revoke.status).toBe(400);
      expect(revoke.body.error).toBe('invalid_request');
      for (const field of ['client_name', 'client_uri', 'scope', 'software_id', 'redirect_uris']) {
        const body: Record<string, unknown> = { client_name: 'Odd', redirect_uris: [REDIRECT] };
        body[field] = field === 'redirect_uris' ? [`${REDIRECT}${c}`] : `x${c}y`;
        const r = await http(server.url, 'POST', '/api/oauth/register', {
          body,
          headers: { 'x-forwarded-for': `192.0.2.${++ipSeq % 250}` },
        });
        expect(r.status, `register ${field}`).toBe(400);
        expect(r.body.error).toBe('invalid_client_metadata');
      }
    }
    expect(tried.length).toBeGreaterThan(50);
  });

  it('key-shaped values are refused where OAuth would store them: client fields and scope', async () => {
    const keyLike = 'ncd_' + 'Q'.repeat(38);
    const clients = await count('oauth_clients');
    for (const field of ['client_name', 'client_uri', 'software_id', 'software_version', 'tos_uri']) {
      const r = await http(server.url, 'POST', '/api/oauth/register', {
        body: { client_name: 'Key thief', redirect_uris: [REDIRECT], [field]: `see ${keyLike}` },
        headers: { 'x-forwarded-for': `192.0.2.${++ipSeq % 250}` },
      });
      expect(r.status, field).toBe(400);
      expect(r.body).toMatchObject({ error: 'invalid_client_metadata' });
      expect(JSON.stringify(r.body)).not.toContain(keyLike);
    }
    expect(await count('oauth_clients')).toBe(clients);
    const key = (await createKey(server, { tier: 'internal' })).raw;
    const codes = await count('oauth_codes');
    const res = await fetch(`${server.url}/api/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...authorizeParams(), scope: keyLike, action: 'key', key }),
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain(keyLike);
    expect(await count('oauth_codes')).toBe(codes);
  });

  it('errors never redirect by themselves, even to a registered https address (no open redirect)', async () => {
    const reg = await http(server.url, 'POST', '/api/oauth/register', {
      body: { client_name: 'Redirector', redirect_uris: ['https://evil.example/cb'] },
      headers: { 'x-forwarded-for': '192.0.2.251' },
    });
    expect(reg.status).toBe(201);
    const faults: Record<string, string>[] = [
      { response_type: 'token' },
      { response_type: 'code' }, // no PKCE
      { response_type: 'code', code_challenge: 'x', code_challenge_method: 'plain' },
      {
        response_type: 'code',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: 'https://a.example',
      },
      { response_type: 'code', state: 'a\u0000' },
    ];
    for (const f of faults) {
      const u = `${server.url}/api/oauth/authorize?${new URLSearchParams({ client_id: reg.body.client_id, ...f })}`;
      const r = await fetch(u, { redirect: 'manual' });
      expect(r.status, JSON.stringify(f)).toBe(400);
      expect(r.headers.get('location'), JSON.stringify(f)).toBeNull();
      expect(r.headers.get('content-type')).toMatch(/text\/html/);
    }
    // Before the redirect URI is known to be the client's: a page, with no link to it either.
    const unknownClient = await fetch(
      `${server.url}/api/oauth/authorize?client_id=nobody&redirect_uri=https://evil.example/cb&response_type=token`,
      { redirect: 'manual' },
    );
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.headers.get('location')).toBeNull();
    expect(await unknownClient.text()).not.toContain('evil.example');
  });
});

describe('scopes are enforced', () => {
  it('a read:companies token reads but cannot create watchlists or destinations; the consent page lists each scope', async () => {
    const key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
    const { challenge } = pkce();
    const page = await fetch(
      `${server.url}/api/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope: 'read:companies',
      })}`,
    );
    const html = await page.text();
    expect(html).toContain('<code>read:companies</code>: Read company data');
    expect(html).not.toContain('write:monitoring');

    const c = await consent(key, `198.51.100.${++ipSeq}`, 'read:companies');
    const tokens = await exchange(c.code!, c.verifier);
    expect(tokens.body.scope).toBe('read:companies');
    const access = tokens.body.access_token as string;
    const read = await callTool(access, 'list_watchlists', {});
    expect(read.isError).toBeFalsy();
    for (const [tool, args] of [
      ['create_watchlist', { name: 'scoped', categories: ['status'] }],
      ['manage_destination', { name: 'hook', type: 'webhook', config: { url: 'https://example.com/h' } }],
      ['delete_watchlist', { name: 'scoped' }],
    ] as const) {
      const r = await callTool(access, tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.content[0].text).toMatch(/Insufficient scope: .* needs the write:monitoring scope/);
    }
    expect((await http(server.url, 'GET', '/api/watchlists', { key })).body.data).toEqual([]);

    // Asking for both (or for none) allows the change.
    const full = await consent(key, `198.51.100.${++ipSeq}`, 'read:companies write:monitoring');
    const both = (await exchange(full.code!, full.verifier)).body.access_token as string;
    // Past the scope check: the tool itself answers (this watchlist does not exist).
    const deleted = await callTool(both, 'delete_watchlist', { name: 'nothing-here' });
    expect(deleted.content[0].text).not.toMatch(/Insufficient scope/);
    expect(deleted.content[0].text).toMatch(/not found|No watchlist/i);
  });
});
