// Fuzzing of the surface /openapi.json leaves out or only touches lightly: the OAuth endpoints
// (authorize GET and POST, token, revoke, register) and the event stream. Every parameter gets
// NUL and other control bytes, oversized values, repeated values, key-shaped values and, for JSON
// bodies, deeply nested documents. Rules: never a 5xx, the OAuth machine endpoints answer every
// refusal in the RFC 6749 error shape, nothing leaks a stack or SQL, the authorize endpoint never
// redirects by itself on a faulty request. Runs on the embedded engine (and on PostgreSQL).
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Scenario } from './record.ts';
import { leak, send, type WireResponse } from './wire.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 45);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const REDIRECT = 'http://127.0.0.1:33418/callback';
let server: TestServer;
let clientId: string;
let key: string;

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: 'true' } });
  key = (await createKey(server, { limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } })).raw;
  const reg = await send(`${server.url}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Fuzz', redirect_uris: [REDIRECT] }),
  });
  clientId = reg.json.client_id;
}, 180_000);
afterAll(() => server?.close());

const CONTROL = ['\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f', '\u0085'];
const odd = fc.oneof(
  fc
    .array(fc.constantFrom(...CONTROL, 'a', 'Z', '9', '%', '&', '=', '+', ' ', 'ø', '\u{1F600}', '\uFFFF'), {
      maxLength: 40,
    })
    .map((cs) => cs.join('')),
  fc.constantFrom('', ' ', 'null', '[]', '{}', '%00', '%E0%A4%A', 'ncd_' + 'Q'.repeat(38), 'ncd_rt_' + 'a'.repeat(43)),
  fc.integer({ min: 1_000, max: 40_000 }).map((n) => 'x'.repeat(n)),
);
/** A parameter: a value, or the same name repeated. */
const paramValue = fc.oneof(
  { weight: 4, arbitrary: odd },
  { weight: 1, arbitrary: fc.array(odd, { minLength: 2, maxLength: 3 }) },
);

function form(fields: Record<string, string | string[]>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) p.append(k, x);
  return p.toString();
}

function pkce() {
  return createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
}

const AUTHORIZE = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'scope',
];
const CONSENT = ['action', 'key', 'projectName', 'email', 'description', 'website'];
const TOKEN = ['grant_type', 'code', 'client_id', 'redirect_uri', 'code_verifier', 'refresh_token', 'resource'];
const STREAM = ['after', 'orgNumber', 'country', 'category'];

/** A valid request's fields with a random subset replaced by odd values. */
const mutated = (names: string[], base: Record<string, string>) =>
  fc.record(Object.fromEntries(names.map((n) => [n, fc.option(paramValue, { freq: 2 })]))).map((over) => {
    const out: Record<string, string | string[]> = { ...base };
    for (const [k, v] of Object.entries(over)) if (v !== null) out[k] = v as string | string[];
    return out;
  });

/** A JSON document nested `depth` levels (objects or arrays). */
const nested = (depth: number, arrays: boolean) =>
  arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

function check(s: Scenario, what: string, r: WireResponse, oauthShape: boolean) {
  s.count(r.status);
  s.check(r.status < 500, `${what}: ${r.status} ${r.text.slice(0, 200)}`);
  const leaked = leak(r.text);
  s.check(!leaked, `${what}: ${leaked}`);
  if (oauthShape && r.status >= 400 && r.status < 500 && ![413, 414, 415, 431].includes(r.status))
    s.check(typeof r.json?.error === 'string', `${what}: ${r.status} without an OAuth error: ${r.text.slice(0, 160)}`);
}

describe('fuzzing the OAuth endpoints and the event stream', () => {
  it('authorize (GET and POST), token, revoke and register: never a 5xx, always the OAuth error shape', async () => {
    const s = new Scenario('fuzz: OAuth endpoints and the event stream', 1);
    const valid = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: 'st',
      code_challenge: pkce(),
      code_challenge_method: 'S256',
    };
    let ip = 0;
    const xff = () => ({ 'x-forwarded-for': `198.18.${(++ip >> 8) & 255}.${ip & 255}` });
    await fc.assert(
      fc.asyncProperty(mutated(AUTHORIZE, valid), async (q) => {
        const r = await send(`${server.url}/api/oauth/authorize?${form(q)}`, { headers: xff() });
        check(s, `GET authorize ${JSON.stringify(q).slice(0, 120)}`, r, false);
        // A redirect only for a consent the user gave: never from GET.
        s.check(
          r.status !== 302 && r.headers.location === undefined,
          `GET authorize redirected: ${r.headers.location}`,
        );
      }),
      { numRuns: RUNS, seed: SEED },
    );
    await fc.assert(
      fc.asyncProperty(mutated([...AUTHORIZE, ...CONSENT], { ...valid, action: 'key', key }), async (f) => {
        const r = await send(`${server.url}/api/oauth/authorize`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...xff() },
          body: form(f),
        });
        check(s, `POST authorize ${JSON.stringify(f).slice(0, 120)}`, r, false);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    for (const path of ['/api/oauth/token', '/api/oauth/revoke']) {
      const base: Record<string, string> =
        path === '/api/oauth/token'
          ? {
              grant_type: 'authorization_code',
              client_id: clientId,
              code: 'ncd_ac_' + 'a'.repeat(43),
              redirect_uri: REDIRECT,
              code_verifier: 'v'.repeat(43),
            }
          : { token: 'ncd_rt_' + 'a'.repeat(43) };
      await fc.assert(
        fc.asyncProperty(
          mutated(path === '/api/oauth/token' ? TOKEN : ['token', 'token_type_hint'], base),
          fc.boolean(),
          async (f, asJson) => {
            const r = await send(`${server.url}${path}`, {
              method: 'POST',
              headers: { 'content-type': asJson ? 'application/json' : 'application/x-www-form-urlencoded', ...xff() },
              body: asJson ? JSON.stringify(f) : form(f),
            });
            check(s, `${path} ${JSON.stringify(f).slice(0, 120)}`, r, true);
          },
        ),
        { numRuns: RUNS, seed: SEED },
      );
    }
    const registerField = fc.constantFrom(
      'client_name',
      'client_uri',
      'logo_uri',
      'scope',
      'software_id',
      'contacts',
      'redirect_uris',
      'grant_types',
      'token_endpoint_auth_method',
      'tos_uri',
      'jwks',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(registerField, fc.oneof(paramValue, fc.anything({ maxDepth: 3 }))),
        async (extra) => {
          const r = await send(`${server.url}/api/oauth/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...xff() },
            body: JSON.stringify({ client_name: 'F', redirect_uris: [REDIRECT], ...extra }),
          });
          check(s, `register ${JSON.stringify(extra).slice(0, 120)}`, r, true);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    // Deeply nested and oversized bodies on every JSON-taking OAuth endpoint.
    for (const path of ['/api/oauth/register', '/api/oauth/token', '/api/oauth/revoke']) {
      for (const body of [
        nested(5_000, false),
        nested(50_000, true),
        `{"client_name":${nested(3_000, false)}}`,
        JSON.stringify({ redirect_uris: Array(5000).fill(REDIRECT) }),
      ]) {
        const r = await send(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...xff() },
          body,
        });
        check(s, `${path} nested/oversized ${body.length} bytes`, r, true);
      }
    }
    // The event stream: every filter and the Last-Event-ID header.
    await fc.assert(
      fc.asyncProperty(mutated(STREAM, {}), fc.option(odd), async (q, lastId) => {
        const headers: Record<string, string> = { authorization: `Bearer ${key}` };
        if (lastId !== null && lastId.length < 8000 && [...lastId].every((c) => c >= ' ' && c <= '~'))
          headers['last-event-id'] = lastId;
        const r = await send(`${server.url}/api/events/stream?${form(q)}`, { headers, timeoutMs: 10_000 });
        check(s, `stream ${JSON.stringify(q).slice(0, 120)}`, r, false);
        // 431: Node refuses an oversized header block before any route (a transport limit).
        if (r.status >= 400 && r.status !== 431)
          s.check(typeof r.json?.code === 'string', `stream ${r.status} not the error body: ${r.text.slice(0, 120)}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    s.figure('seed', String(SEED));
    s.save();
    expect(s.violations.slice(0, 10)).toEqual([]);
  });
});
