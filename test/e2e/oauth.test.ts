// OAuth 2.1 sign-in of MCP clients against the real server (issue 21), driven by the MCP SDK
// client's own OAuth code (StreamableHTTPClientTransport's authProvider and auth()): discovery
// from the 401, dynamic registration, PKCE authorization with the consent page over HTTP, token,
// tools, refresh, revocation; an Orakel-shaped .mcp.json; and the RFC errors of every endpoint.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { createLogger } from '../../src/logger.ts';
import { startSmtpReceiver } from '../fakes/smtp.ts';
import { MemoryOAuthProvider, postForm, submitConsent } from '../helpers/oauth-client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const clock = new FakeClock(new Date());
const logs: string[] = [];
/** Every raw code and token handed out in this file: none may rest in the database or the logs. */
const secrets = new Set<string>();
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let server: TestServer;
let key: { raw: string; keyPrefix: string };
let mcpUrl: URL;
let orgNumber: string;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startServer({
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'keys@example.test' },
    overrides: { clock, logger: createLogger('info', { write: (line: string) => void logs.push(line) }) },
  });
  await loadGeneratedCompanies(server, 5);
  key = await createKey(server, { tier: 'internal' });
  mcpUrl = new URL(`${server.url}/api/mcp`);
  const rows = (await http(server.url, 'GET', '/api/companies?limit=1', { key: key.raw })).body.data;
  orgNumber = rows[0].orgNumber;
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const usageToday = async () => (await http(server.url, 'GET', '/api/keys/usage', { key: key.raw })).body.usage.today;
const count = async (table: string) =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(server.ctx.store.db)).rows[0].n;

/** A transport whose requests to /api/mcp are counted (each one is one counted request). */
function transport(provider: MemoryOAuthProvider, url = mcpUrl) {
  const sent = { n: 0 };
  const t = new StreamableHTTPClientTransport(url, {
    authProvider: provider,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith('/api/mcp') && res.status < 300) sent.n++;
      return res;
    },
  });
  return { t, sent };
}

function remember(code: string | undefined, provider: MemoryOAuthProvider) {
  for (const v of [code, provider.saved?.access_token, provider.saved?.refresh_token]) if (v) secrets.add(v);
}

/** The whole sign-in as an MCP host runs it: 401 -> discovery -> DCR -> consent -> token. */
async function signIn(
  provider: MemoryOAuthProvider,
  url = mcpUrl,
  choice: Record<string, string> = { action: 'key', key: key.raw },
) {
  const first = transport(provider, url);
  const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
  await expect(client.connect(first.t)).rejects.toBeInstanceOf(UnauthorizedError);
  const authUrl = provider.authorizationUrl!;
  expect(authUrl.pathname).toBe('/api/oauth/authorize');
  expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
  const page = await fetch(authUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('wants to use your API key');
  const consent = await submitConsent(authUrl, choice);
  expect(consent.status).toBe(302);
  expect(consent.location!.origin + consent.location!.pathname).toBe(provider.redirect);
  expect(consent.location!.searchParams.get('state')).toBe(authUrl.searchParams.get('state'));
  const code = consent.location!.searchParams.get('code')!;
  await first.t.finishAuth(code);
  expect(provider.saved?.access_token).toMatch(/^ncd_at_/);
  remember(code, provider);
  return code;
}

describe('OAuth sign-in with the MCP SDK client', () => {
  it('discovers, registers, authorizes with PKCE, calls tools counted like the key, refreshes and revokes', async () => {
    // Discovery starts from the 401 of /api/mcp.
    const bare = await http(server.url, 'POST', '/api/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    const prm = await http(server.url, 'GET', '/.well-known/oauth-protected-resource');
    expect(prm.body).toMatchObject({ resource: mcpUrl.href, authorization_servers: [server.url] });
    const asm = await http(server.url, 'GET', '/.well-known/oauth-authorization-server');
    expect(asm.body).toMatchObject({
      issuer: server.url,
      registration_endpoint: `${server.url}/api/oauth/register`,
      code_challenge_methods_supported: ['S256'],
    });

    const provider = new MemoryOAuthProvider();
    await signIn(provider);
    expect(provider.client?.client_id).toMatch(/^ncd_client_/);

    const before = await usageToday();
    const { t, sent } = transport(provider);
    const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await client.connect(t);
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toContain('lookup_company');
    const r = await client.callTool({ name: 'lookup_company', arguments: { orgNumber } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ orgNumber });
    await client.close();
    // Every MCP request with the token counted once against the key's project, as a keyed call.
    expect(sent.n).toBeGreaterThanOrEqual(3);
    expect(await usageToday()).toBe(before + sent.n);

    // Refresh: the SDK's auth() trades the refresh token for a new pair; the old one is spent.
    const old = provider.saved!;
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    expect(provider.saved!.access_token).not.toBe(old.access_token);
    expect(provider.saved!.refresh_token).not.toBe(old.refresh_token);
    remember(undefined, provider);
    const replay = await postForm(`${server.url}/api/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: old.refresh_token!,
      client_id: provider.client!.client_id,
    });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // Reuse of a rotated refresh token ends the whole grant (rotation with reuse detection):
    // the pair the refresh gave stops too.
    const fresh = await http(server.url, 'POST', '/api/mcp', {
      key: provider.saved!.access_token,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(fresh.status).toBe(401);
    provider.saved = undefined;
    await signIn(provider);

    // Revocation (RFC 7009) ends the grant: its access and refresh tokens stop at once.
    const revoked = await postForm(`${server.url}/api/oauth/revoke`, { token: provider.saved!.refresh_token! });
    expect(revoked.status).toBe(200);
    const after = await http(server.url, 'POST', '/api/mcp', {
      key: provider.saved!.access_token,
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refreshAfter = await postForm(`${server.url}/api/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: provider.client!.client_id,
    });
    expect(refreshAfter.body.error).toBe('invalid_grant');
  });

  it('connects from an Orakel-shaped .mcp.json that holds only our URL', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-json-'));
    const file = path.join(dir, '.mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { orakel: { type: 'http', url: mcpUrl.href } } }));
    const entry = JSON.parse(readFileSync(file, 'utf8')).mcpServers.orakel;
    expect(entry).toEqual({ type: 'http', url: mcpUrl.href });
    const provider = new MemoryOAuthProvider('http://localhost:8765/callback');
    await signIn(provider, new URL(entry.url));
    const client = new Client({ name: 'orakel-plugin', version: '1.0.0' });
    await client.connect(transport(provider, new URL(entry.url)).t);
    expect((await client.listTools()).tools.length).toBeGreaterThanOrEqual(13);
    await client.close();
  });

  it('signs in by registering a new free project on the consent page (setup e-mail, same rules)', async () => {
    const provider = new MemoryOAuthProvider();
    const projects = await count('projects');
    await signIn(provider, mcpUrl, {
      action: 'register',
      projectName: 'Agent project',
      email: 'agent@example.com',
      website: '',
    });
    expect(await count('projects')).toBe(projects + 1);
    // The setup e-mail of /api/keys/register went out for the new project.
    const mail = smtp.messages.find((m) => m.to.includes('agent@example.com'));
    expect(mail?.raw).toContain('/setup?key=');
    const usage = await http(server.url, 'GET', '/api/keys/usage', { key: provider.saved!.access_token });
    expect(usage.status).toBe(401); // the token's audience is the MCP endpoint only

    // The same name again: refused with the register endpoint's error, shown on the page.
    const p2 = new MemoryOAuthProvider();
    await expect(new Client({ name: 'x', version: '1' }).connect(transport(p2).t)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const taken = await submitConsent(p2.authorizationUrl!, {
      action: 'register',
      projectName: 'Agent project',
      email: 'other@example.com',
    });
    expect(taken.status).toBe(409);
    expect(taken.html).toContain('projectName is already taken');
    const bad = await submitConsent(p2.authorizationUrl!, { action: 'register', projectName: 'x', email: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('body.email');
    const honeypot = await submitConsent(p2.authorizationUrl!, {
      action: 'register',
      projectName: 'Bot project',
      email: 'bot@example.com',
      website: 'http://spam.example',
    });
    expect(honeypot.status).toBe(200);
    expect(honeypot.location).toBeUndefined();
    expect(await count('projects')).toBe(projects + 1);
  });

  it('rotating the key ends its tokens', async () => {
    const own = await createKey(server);
    const provider = new MemoryOAuthProvider();
    await signIn(provider, mcpUrl, { action: 'key', key: own.raw });
    const ping = () =>
      http(server.url, 'POST', '/api/mcp', {
        key: provider.saved!.access_token,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      });
    expect((await ping()).status).toBe(200);
    expect((await http(server.url, 'POST', '/api/keys/rotate', { key: own.raw })).status).toBe(201);
    expect((await ping()).status).toBe(401);
    const refreshed = await postForm(`${server.url}/api/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: provider.client!.client_id,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
  });
});

describe('RFC errors, and bad input changes nothing', () => {
  /** A registered client and a fresh code for it (consent given with the key). */
  async function codeFor(provider = new MemoryOAuthProvider()) {
    await expect(new Client({ name: 'x', version: '1' }).connect(transport(provider).t)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const consent = await submitConsent(provider.authorizationUrl!, { action: 'key', key: key.raw });
    return { provider, code: consent.location!.searchParams.get('code')!, authUrl: provider.authorizationUrl! };
  }
  const tokenRequest = (provider: MemoryOAuthProvider, code: string, extra: Record<string, string> = {}) =>
    postForm(`${server.url}/api/oauth/token`, {
      grant_type: 'authorization_code',
      code,
      client_id: provider.client!.client_id,
      redirect_uri: provider.redirect,
      code_verifier: provider.verifier,
      ...extra,
    });

  it('wrong PKCE verifier and a reused code: invalid_grant, and nothing is issued', async () => {
    const { provider, code } = await codeFor();
    const grants = await count('oauth_grants');
    const wrong = await tokenRequest(provider, code, { code_verifier: 'x'.repeat(43) });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(wrong.headers.get('cache-control')).toBe('no-store');
    expect(await count('oauth_grants')).toBe(grants);
    const ok = await tokenRequest(provider, code); // the code was not spent by the bad attempt
    expect(ok.status).toBe(200);
    secrets.add(code).add(ok.body.access_token).add(ok.body.refresh_token);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const reused = await tokenRequest(provider, code);
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await count('oauth_grants')).toBe(grants + 1);
  });

  it('foreign redirect URIs: refused at registration, never redirected to, invalid_grant at the token endpoint', async () => {
    const reg = await http(server.url, 'POST', '/api/oauth/register', {
      body: { redirect_uris: ['http://evil.example/callback'], client_name: 'evil' },
    });
    expect(reg).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
    const { provider, code, authUrl } = await codeFor();
    const foreign = new URL(authUrl);
    foreign.searchParams.set('redirect_uri', 'https://evil.example/callback');
    const page = await fetch(foreign, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    const codes = await count('oauth_codes');
    const posted = await submitConsent(foreign, { action: 'key', key: key.raw });
    expect(posted.status).toBe(400);
    expect(await count('oauth_codes')).toBe(codes);
    const swapped = await tokenRequest(provider, code, { redirect_uri: 'http://127.0.0.1:33418/other' });
    expect(swapped.body.error).toBe('invalid_grant');
    // Loopback redirect URIs may change port (RFC 8252 §7.3).
    const port = new URL(authUrl);
    port.searchParams.set('redirect_uri', 'http://127.0.0.1:40001/callback');
    expect((await fetch(port, { redirect: 'manual' })).status).toBe(200);
  });

  it('missing PKCE, a wrong resource and an unknown client: RFC errors', async () => {
    const { provider, authUrl } = await codeFor();
    const noPkce = new URL(authUrl);
    noPkce.searchParams.delete('code_challenge');
    // Never an automatic redirect (no open redirector, RFC 9700 §4.11.2): a 400 page that links
    // to the client's error response for the user to follow.
    const linked = async (u: URL) => {
      const r = await fetch(u, { redirect: 'manual' });
      expect(r.status).toBe(400);
      expect(r.headers.get('location')).toBeNull();
      const href = /<a rel="noreferrer" href="([^"]+)"/.exec((await r.text()).replace(/&#38;|&amp;/g, '&'))![1];
      return new URL(href).searchParams.get('error');
    };
    expect(await linked(noPkce)).toBe('invalid_request');
    const plain = new URL(authUrl);
    plain.searchParams.set('code_challenge_method', 'plain');
    expect(await linked(plain)).toBe('invalid_request');
    const target = new URL(authUrl);
    target.searchParams.set('resource', 'https://other.example/api/mcp');
    expect(await linked(target)).toBe('invalid_target');
    const unknown = await postForm(`${server.url}/api/oauth/token`, {
      grant_type: 'authorization_code',
      code: 'x',
      client_id: 'nobody',
    });
    expect(unknown).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const grantType = await postForm(`${server.url}/api/oauth/token`, {
      grant_type: 'password',
      client_id: provider.client!.client_id,
    });
    expect(grantType.body.error).toBe('unsupported_grant_type');
    const missing = await postForm(`${server.url}/api/oauth/token`, { client_id: provider.client!.client_id });
    expect(missing.body.error).toBe('invalid_request');
    const denied = await submitConsent(authUrl, { action: 'deny' });
    expect(denied.location!.searchParams.get('error')).toBe('access_denied');
  });

  it('an expired access token and one used for another audience are refused', async () => {
    const provider = new MemoryOAuthProvider();
    await signIn(provider);
    const token = provider.saved!.access_token;
    const ping = () =>
      http(server.url, 'POST', '/api/mcp', {
        key: token,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      });
    expect((await ping()).status).toBe(200);
    // Another audience: the REST API, and the MCP endpoint under another public address.
    expect((await http(server.url, 'GET', `/api/companies/${orgNumber}`, { key: token })).status).toBe(401);
    const config = server.ctx.config;
    Object.assign(config, { baseUrl: 'https://mcp.other.example', baseUrlConfigured: true });
    try {
      expect((await ping()).status).toBe(401);
    } finally {
      Object.assign(config, { baseUrl: server.url, baseUrlConfigured: false });
    }
    clock.advance(3601_000);
    try {
      const expired = await ping();
      expect(expired.status).toBe(401);
      expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    } finally {
      clock.advance(-3601_000);
    }
  });

  it('limits dynamic client registrations per IP', async () => {
    let limited: { status: number; headers: Headers; body: any } | undefined;
    for (let i = 0; i < 25 && !limited; i++) {
      const r = await http(server.url, 'POST', '/api/oauth/register', {
        body: { redirect_uris: ['http://127.0.0.1:9/cb'] },
      });
      if (r.status === 429) limited = r;
      else expect(r.status).toBe(201);
    }
    expect(limited?.body.error).toBe('too_many_requests');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('secrets scan', () => {
  it('finds no raw code or token in any table or in the logs', async () => {
    expect(secrets.size).toBeGreaterThanOrEqual(10);
    const db = server.ctx.store.db;
    const tables = await sql<{ name: string }>`
      SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
    let dump = '';
    for (const { name } of tables.rows)
      dump += (await sql<{ t: string }>`SELECT t::text AS t FROM ${sql.table(name)} t`.execute(db)).rows
        .map((r) => r.t)
        .join('\n');
    expect(dump).toContain('ncd_client_'); // the scan reads the OAuth tables
    const logText = logs.join('');
    expect(logText.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(dump.includes(secret), 'a raw code or token is stored').toBe(false);
      expect(logText.includes(secret), 'a raw code or token is logged').toBe(false);
    }
  });
});
