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
async function consent(key: string, ip: string) {
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
