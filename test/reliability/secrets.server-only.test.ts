// Secrets and data minimisation: a full working session against a server process (keys
// registered and rotated, a destination with a secret header, a HubSpot destination with its
// private-app token, pushes, live lookups of companies whose board members carry full birth
// dates, an OAuth sign-in with its code, access and refresh tokens used over MCP, refreshed and
// replayed, the event feed, an evidence pack signed with EVIDENCE_SIGNING_KEY, diagnostic health
// with SYNC_SECRET), then every table of the database, the process log, every push payload and
// every response body are scanned: no raw API key, OAuth code or token, CRM token, destination
// header value, SYNC_SECRET, SECRET_KEY or signing key, no full birth date or national id of a
// person. Error bodies seen on the way carry no stack trace or SQL. Server mode (scans PostgreSQL).
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSigningKeyPem } from '../../src/domain/evidence/index.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { startFakeHubspot, type FakeHubspot } from '../fakes/hubspot.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { TEST_SECRET } from '../helpers/env.ts';
import { createKey } from '../helpers/keys.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { createTestDatabase, startServer, type TestDatabase } from '../helpers/server.ts';
import { Scenario } from './record.ts';
import { leak, send, type WireResponse } from './wire.ts';

let brreg: FakeBrreg;
let receiver: WebhookReceiver;
let hubspot: FakeHubspot;
let db: TestDatabase;
let proc: ServerProcess;
afterAll(async () => {
  await proc?.stop('SIGTERM');
  await receiver?.close();
  await hubspot?.close();
  await brreg?.close();
  await db?.drop();
});

const SYNC_SECRET = 'sync-secret-Zq81-do-not-leak';
const HEADER_VALUE = 'dest-header-secret-Kx73P';
const SIGNING_KEY = generateSigningKeyPem();
/** The signing key's secret part: the base64 body of its PEM. */
const SIGNING_KEY_BODY = SIGNING_KEY.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
const REDIRECT = 'http://127.0.0.1:33418/callback';

describe('secrets and personal data after a full session', () => {
  it('leaves no raw key, header value, SYNC_SECRET, full birth date or national id in the database, logs or payloads', async () => {
    const s = new Scenario('secrets: database, logs, push payloads', 5);
    brreg = await startFakeBrreg();
    receiver = await startWebhookReceiver();
    hubspot = await startFakeHubspot();
    const hubspotToken = hubspot.issueToken();
    const births: string[] = [];
    const orgs: string[] = [];
    for (let i = 0; i < 12; i++) {
      const c = generateCompany(60_000 + i, 17);
      // distinctive birth dates (before 1900: no company date can collide with them)
      let n = 0;
      for (const g of c.roller.rollegrupper ?? []) {
        for (const r of g.roller ?? []) {
          if (!r.person) continue;
          const d = `18${String(10 + ((i * 7 + n) % 89)).padStart(2, '0')}-${String(1 + (n % 12)).padStart(2, '0')}-${String(10 + i).padStart(2, '0')}`;
          r.person.fodselsdato = d;
          births.push(d);
          n++;
        }
      }
      brreg.add(c);
      orgs.push(c.enhet.organisasjonsnummer);
    }
    expect(births.length).toBeGreaterThan(5);

    db = await createTestDatabase();
    const admin = await startServer({ database: db });
    const pro = await createKey(admin, { tier: 'pro', limits: { rateLimitPerMinute: 0 } });
    await admin.close();
    proc = await startServerProcess(
      {
        ...db.env,
        SECRET_KEY: TEST_SECRET,
        SYNC_SECRET,
        BRREG_BASE_URL: brreg.url,
        HUBSPOT_BASE_URL: hubspot.url,
        EVIDENCE_SIGNING_KEY: SIGNING_KEY.replace(/\n/g, '\\n'),
        ALLOW_PRIVATE_DESTINATIONS: 'true',
        LOG_LEVEL: 'debug',
      },
      240_000,
    );

    const seen: WireResponse[] = [];
    const call = async (
      method: string,
      path: string,
      opts: { key?: string; body?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
    ) => {
      const r = await send(proc.url + path, {
        method,
        headers: {
          ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(opts.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(opts.headers ?? {}),
        },
        body: opts.form
          ? new URLSearchParams(opts.form).toString()
          : opts.body !== undefined
            ? JSON.stringify(opts.body)
            : undefined,
      });
      s.count(r.status);
      seen.push(r);
      return r;
    };

    const raws = [pro.raw];
    const reg = await call('POST', '/api/keys/register', {
      body: { projectName: 'secret-scan', email: 'scan@example.com' },
    });
    expect(reg.status).toBe(201);
    raws.push(reg.json.raw);
    const rot = await call('POST', '/api/keys/rotate', { key: reg.json.raw });
    expect(rot.status).toBe(201);
    raws.push(rot.json.raw);
    await call('GET', `/setup?key=${encodeURIComponent(rot.json.raw)}`);
    await call('GET', '/api/keys/usage', { key: rot.json.raw });
    await call('GET', '/api/keys/usage', { key: reg.json.raw }); // the rotated-away key: 401
    await call('GET', '/api/health', { headers: { 'x-sync-secret': SYNC_SECRET } });
    await call('GET', '/api/health', { headers: { 'x-sync-secret': SYNC_SECRET + 'x' } });
    for (const o of orgs) await call('GET', `/api/companies/${o}`, { key: pro.raw });
    await call('POST', '/api/companies/enrich', { key: pro.raw, body: { orgNumbers: orgs } });
    const dest = await call('POST', '/api/destinations', {
      key: pro.raw,
      body: {
        name: 'crm',
        type: 'webhook',
        config: { url: `${receiver.url}/hook`, headers: { 'X-Api-Token': HEADER_VALUE } },
      },
    });
    expect(dest.status).toBe(201);
    await call('GET', '/api/destinations', { key: pro.raw });
    await call('GET', '/api/destinations/crm', { key: pro.raw });
    const push = await call('POST', '/api/push/crm', { key: pro.raw, body: { orgNumbers: orgs.slice(0, 6) } });
    expect(push.status).toBe(200);
    receiver.mode = { kind: 'status', status: 500, body: `upstream says ${HEADER_VALUE}` };
    await call('POST', '/api/push/crm', { key: pro.raw, body: { orgNumbers: orgs.slice(6) } });
    // secrets where clients misplace them: a key in ?key= (like the setup link), a malformed
    // Authorization header, the sync secret as a bearer token
    await call('GET', `/api/municipalities?key=${encodeURIComponent(pro.raw)}`);
    await call('GET', '/api/municipalities', { headers: { authorization: `Bearer ${pro.raw} extra` } });
    await call('GET', '/api/municipalities', { headers: { authorization: `Bearer ${SYNC_SECRET}` } });
    // a key under every usual secret parameter name, under an arbitrary one, in a path segment,
    // in custom headers and in body fields (refused with 400: it would be stored)
    const k = encodeURIComponent(pro.raw);
    for (const name of ['api_key', 'apikey', 'access_token', 'token', 'auth', 'password', 'secret', 'q'])
      await call('GET', `/api/companies?${name}=${k}&country=NO`);
    await call('GET', `/api/companies/${k}`, { key: pro.raw });
    await call('GET', `/api/companies?q=${k}`, { key: pro.raw });
    await call('GET', '/api/municipalities', { headers: { 'x-api-key': pro.raw, 'x-debug': `copy of ${pro.raw}` } });
    const pasted = await call('POST', '/api/keys/register', {
      body: { projectName: `pasted ${pro.raw}`, email: 'paste@example.com', description: pro.raw },
    });
    s.check(pasted.status === 400, `a key in a body field: ${pasted.status} (want 400, nothing stored)`);
    const destPasted = await call('POST', '/api/destinations', {
      key: pro.raw,
      body: { name: pro.raw, type: 'webhook', config: { url: `${receiver.url}/hook?api_key=${k}` } },
    });
    s.check(destPasted.status === 400, `a key as a destination name: ${destPasted.status} (want 400)`);

    // A HubSpot destination: its private-app token travels to HubSpot only.
    const hs = await call('POST', '/api/destinations', {
      key: pro.raw,
      body: { name: 'hs', type: 'hubspot', config: { accessToken: hubspotToken } },
    });
    expect(hs.status).toBe(201);
    expect((await call('POST', '/api/push/hs', { key: pro.raw, body: { orgNumbers: orgs.slice(0, 3) } })).status).toBe(
      200,
    );
    expect(hubspot.requests.some((r) => r.headers.authorization === `Bearer ${hubspotToken}`)).toBe(true);

    // An OAuth sign-in: the code, the tokens, an MCP call, a refresh, a replayed refresh token.
    const tokens: string[] = [];
    const client = await call('POST', '/api/oauth/register', {
      body: { client_name: 'Secret scan agent', redirect_uris: [REDIRECT] },
    });
    expect(client.status).toBe(201);
    const verifier = randomBytes(32).toString('base64url');
    const authorize = await call('POST', '/api/oauth/authorize', {
      form: {
        response_type: 'code',
        client_id: client.json.client_id,
        redirect_uri: REDIRECT,
        state: 'scan',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        action: 'key',
        key: pro.raw,
      },
    });
    const code = new URL(String(authorize.headers.location)).searchParams.get('code')!;
    expect(code).toBeTruthy();
    const token = (form: Record<string, string>) =>
      call('POST', '/api/oauth/token', { form: { client_id: client.json.client_id, ...form } });
    const granted = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(granted.status).toBe(200);
    tokens.push(granted.json.access_token, granted.json.refresh_token);
    const mcp = await call('POST', '/api/mcp', {
      key: granted.json.access_token,
      headers: { accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_company', arguments: { orgNumber: orgs[0] } },
      },
    });
    expect(mcp.status).toBe(200);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: granted.json.refresh_token });
    expect(refreshed.status).toBe(200);
    tokens.push(refreshed.json.access_token, refreshed.json.refresh_token);
    await token({ grant_type: 'refresh_token', refresh_token: granted.json.refresh_token }); // reuse: the grant ends
    await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }); // replayed
    await call('GET', '/api/keys/usage', { key: refreshed.json.access_token });

    // The event feed, and an evidence pack of a company whose board members carry birth dates.
    await call('GET', '/api/events?limit=200', { key: pro.raw });
    const pack = await call('POST', `/api/companies/${orgs[0]}/evidence`, {
      key: pro.raw,
      body: { reference: 'SCAN-1' },
    });
    expect(pack.status).toBe(201);
    await call('GET', `/api/evidence/${pack.json.id}`, { key: pro.raw });

    expect(receiver.requests.length).toBe(2);
    expect(receiver.requests[0].headers['x-api-token']).toBe(HEADER_VALUE); // it did travel, in the header only

    // the scans
    const c = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await c.connect();
    const tables = (
      await c.query<{ t: string }>(
        `SELECT quote_ident(table_name) AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      )
    ).rows.map((r) => r.t);
    let dump = '';
    for (const t of tables)
      dump +=
        (await c.query<{ x: string | null }>(`SELECT string_agg(x::text, E'\\n') AS x FROM ${t} x`)).rows[0].x ?? '';
    await c.end();
    await proc.stop('SIGTERM');
    const logs = proc.output();
    const payloads = [...receiver.requests, ...hubspot.requests].map((r) => r.body ?? '').join('\n');

    const needles: [string, string | RegExp][] = [
      ...raws.map((r, i) => [`raw API key #${i + 1}`, r] as [string, string]),
      ['destination header value', HEADER_VALUE],
      ['HubSpot token', hubspotToken],
      ['OAuth authorization code', code],
      ...tokens.map((t, i) => [`OAuth token #${i + 1}`, t] as [string, string]),
      ['EVIDENCE_SIGNING_KEY', SIGNING_KEY_BODY],
      ['EVIDENCE_SIGNING_KEY (a line of it)', SIGNING_KEY_BODY.slice(0, 40)],
      ['SYNC_SECRET', SYNC_SECRET],
      ['SECRET_KEY', TEST_SECRET],
      ...births.map((b) => [`full birth date ${b}`, b] as [string, string]),
      ...births.map(
        (b) =>
          [`national id for ${b}`, new RegExp(`${b.slice(8, 10)}${b.slice(5, 7)}${b.slice(2, 4)}\\d{5}`)] as [
            string,
            RegExp,
          ],
      ),
    ];
    const places: [string, string][] = [
      ['database', dump],
      ['log', logs],
      ['push payloads', payloads],
      ['response bodies', seen.map((r) => r.text).join('\n')],
    ];
    for (const [place, text] of places) {
      for (const [what, needle] of needles) {
        // the registration and rotation answers hand out their own key once, by design
        if (place === 'response bodies' && what.startsWith('raw API key')) continue;
        // and the token endpoint its tokens, the HubSpot fake the token it issued
        if (place === 'response bodies' && what.startsWith('OAuth token')) continue;
        const at = typeof needle === 'string' ? text.indexOf(needle) : text.search(needle);
        s.check(at < 0, `${what} found in the ${place}: …${text.slice(Math.max(0, at - 100), at + 60)}…`);
      }
    }
    // the stored rows do keep the birth year (minimisation, not loss)
    s.check(/\b18\d\d\b/.test(dump), 'no birth year stored at all');
    s.check(payloads.length > 1000 && dump.length > 1000 && logs.length > 1000, 'nothing to scan');
    for (const r of seen.filter((x) => x.status >= 400)) {
      const l = leak(r.text);
      if (l) s.violation(`error body leaks internals: ${l}`);
    }
    s.save();
    expect(s.violations).toEqual([]);
  });
});
