// Schema-driven fuzzing: every operation of the served /openapi.json (read at run time, so new
// routes are fuzzed too) gets random, boundary and broken params, bodies and headers, with and
// without a valid key. Rules: no 5xx; every status documented (or a transport limit); every
// body matches its documented schema; invalid input gets 4xx, a validation 400 has details[];
// no key -> 401 unless SPEC.md marks the operation public; no error body leaks a stack or SQL.
// Runs on both engines.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { bodyArb, operations, textArb, validators, type Operation, type Schema } from './openapi-arbs.ts';
import { Scenario } from './record.ts';
import { leak, send, type WireResponse } from './wire.ts';

/** SPEC.md "Authentication" 2: public operations; plus the access-request form, which SPEC's
 * limits table names as sharing the public registration limit (it is how a keyless visitor asks),
 * and the JWKS: the public keys an evidence pack's signature is checked against offline must be
 * readable by whoever received the pack, who may hold no key (README "Evidence packs"). */
const PUBLIC = new Set([
  'POST /api/keys/register',
  'GET /api/health',
  'GET /api/coverage',
  'POST /api/access-requests',
  'GET /.well-known/jwks.json',
]);
/** Limits of the transport itself, valid on every operation (README "Reliability"). */
// 406: content negotiation (the MCP endpoint's transport asks for an Accept header).
const TRANSPORT = new Set([406, 413, 414, 415, 431]);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 45);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

let server: TestServer;
let brreg: FakeBrreg;
let doc: Schema;
let key: string;

// No DNS from the fuzzer's destinations: every name "resolves" to nothing.
const noDns = { lookup: async () => [] };

beforeAll(async () => {
  brreg = await startFakeBrreg();
  const loopback = {
    BRREG_BASE_URL: brreg.url,
    PRH_BASE_URL: brreg.url,
    SANCTIONS_URL: brreg.url,
    INSPECTIONS_URL: brreg.url,
    BOLAGSVERKET_BULK_URL: brreg.url,
  };
  server = await startServer({ env: loopback, overrides: { resolver: noDns } });
  await loadGeneratedCompanies(server, 120, 21);
  key = (await createKey(server, { limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } })).raw;
  doc = (await send(`${server.url}/openapi.json`)).json;
}, 180_000);
afterAll(async () => {
  await server?.close();
  await brreg?.close();
});

type Auth = 'valid' | 'none' | 'wrong' | 'malformed';
type BodyCase =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string; broken: boolean };

interface Case {
  auth: Auth;
  values: Record<string, string>;
  body: BodyCase;
  requestId?: string;
}

const authArb = fc.constantFrom<Auth>('valid', 'valid', 'valid', 'valid', 'none', 'wrong', 'malformed');
const malformedAuth = fc.constantFrom(
  'Basic dXNlcjpwYXNz',
  'Bearer',
  'Bearer ',
  'bearer a b c',
  'Bearer ' + 'x'.repeat(4000),
  'Token ncd_abc',
  'Bearer ncd_' + '!'.repeat(38),
);

function caseArb(op: Operation): fc.Arbitrary<Case & { authHeader: string }> {
  const values: Record<string, fc.Arbitrary<string | undefined>> = {};
  for (const p of op.params) {
    const v = textArb(doc, p.schema);
    values[p.name] =
      p.required || p.in === 'path'
        ? fc.oneof({ weight: 9, arbitrary: v }, { weight: p.in === 'path' ? 0 : 1, arbitrary: fc.constant(undefined) })
        : fc.option(v, { freq: 2, nil: undefined });
  }
  const rawBodies = fc.oneof(
    fc
      .string({ maxLength: 50 })
      .filter((t) => {
        try {
          JSON.parse(t);
          return false;
        } catch {
          return true;
        }
      })
      .map((text) => ({ kind: 'raw' as const, text, contentType: 'application/json', broken: true })),
    fc
      .constantFrom(
        '{"a":',
        '[1,2',
        '{"orgNumbers": [1,2,3]',
        '\u0000',
        'nul',
        '{"__proto__": {"x": 1}}',
        '"' + 'a'.repeat(2000),
      )
      .map((text) => ({ kind: 'raw' as const, text, contentType: 'application/json', broken: !isJson(text) })),
    fc
      .constantFrom(
        'text/xml',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'image/png',
      )
      .map((contentType) => ({ kind: 'raw' as const, text: '<a>1</a>', contentType, broken: true })),
  );
  const body: fc.Arbitrary<BodyCase> = op.body
    ? fc.oneof(
        { weight: 7, arbitrary: bodyArb(doc, op.body).map((value) => ({ kind: 'json' as const, value })) },
        { weight: 3, arbitrary: rawBodies },
      )
    : fc.constant({ kind: 'none' as const });
  return fc.record({
    auth: authArb,
    authHeader: malformedAuth,
    values: fc.record(values) as fc.Arbitrary<Record<string, string>>,
    body,
    requestId: fc.option(
      fc.oneof(
        fc.constantFrom('abc-123', 'x'.repeat(65), 'a b', '../x'),
        fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
      ),
      { nil: undefined },
    ),
  });
}

function isJson(t: string) {
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

function buildRequest(op: Operation, c: Case & { authHeader: string }, rawKey: string) {
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of op.params) {
    const v = c.values[p.name];
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(v ?? ''));
    else if (v === undefined) continue;
    else if (p.in === 'query') query.set(p.name, v);
    else if (p.in === 'header' && /^[\x20-\x7e]*$/.test(v)) headers[p.name] = v;
  }
  if (c.auth === 'valid') headers.authorization = `Bearer ${rawKey}`;
  else if (c.auth === 'wrong') headers.authorization = `Bearer ncd_${'Q'.repeat(38)}`;
  else if (c.auth === 'malformed') headers.authorization = c.authHeader;
  if (c.requestId !== undefined) headers['x-request-id'] = c.requestId;
  let body: string | undefined;
  if (c.body.kind === 'json') {
    body = JSON.stringify(c.body.value) ?? 'null';
    headers['content-type'] = 'application/json';
  } else if (c.body.kind === 'raw') {
    body = c.body.text;
    headers['content-type'] = c.body.contentType;
  }
  const qs = query.toString();
  return { url: `${server.url}${path}${qs ? '?' + qs : ''}`, headers, body };
}

const documented = (op: Operation, status: number) => Boolean(op.op.responses?.[String(status)]);

function checkResponse(
  s: Scenario,
  op: Operation,
  what: string,
  res: WireResponse,
  v: ReturnType<typeof validators>,
  expect: { invalid: boolean; unauthenticated: boolean; pathInvalid: boolean },
) {
  const id = `${op.method} ${op.path}`;
  s.count(res.status);
  const where = `${id} ${what} -> ${res.status} ${res.text.slice(0, 200)}`;
  if (res.status >= 500) return s.violation(`5xx: ${where}`);
  const routeMiss = res.status === 404 && res.json?.code === 'route_not_found' && expect.pathInvalid;
  if (!documented(op, res.status) && !TRANSPORT.has(res.status) && !routeMiss)
    s.violation(`undocumented status: ${where}`);
  if (expect.unauthenticated && op.keyed)
    s.check(
      res.status === 401 || TRANSPORT.has(res.status),
      `keyed operation without a valid key did not answer 401: ${where}`,
    );
  if (expect.invalid) s.check(res.status >= 400 && res.status < 500, `invalid input not refused with 4xx: ${where}`);
  if (res.status === 400 && res.json?.code === 'validation_failed') {
    const d = res.json.details;
    s.check(
      Array.isArray(d) &&
        d.length > 0 &&
        d.every((x: any) => typeof x.path === 'string' && typeof x.message === 'string'),
      `validation 400 without details[]: ${where}`,
    );
  }
  if (res.status >= 400) {
    const l = leak(res.text);
    if (l) s.violation(`error body leaks internals (${l}): ${where}`);
  }
  const schema = op.op.responses?.[String(res.status)]?.content?.['application/json']?.schema;
  if (schema && res.status !== 204) {
    if (res.json === undefined) s.violation(`documented JSON body missing: ${where}`);
    else {
      const err = v.response(`${id} ${res.status}`, schema, res.json);
      if (err) s.violation(`body does not match the documented schema (${err}): ${where}`);
    }
  }
}

describe('schema-driven fuzzing of every operation in /openapi.json', () => {
  it('answers every generated request as documented', async () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(10);
    const v = validators(doc);
    const s = new Scenario('fuzz: openapi operations (seed ' + SEED + ')', 1);
    console.log(`fuzzing ${ops.length} operations × ${RUNS_PER_OPERATION} requests, FUZZ_SEED=${SEED}`);
    for (const op of ops) {
      const id = `${op.method} ${op.path}`;
      if (!op.keyed)
        s.check(PUBLIC.has(id), `operation without a key requirement that SPEC.md does not mark public: ${id}`);
      const cases = fc.sample(caseArb(op), { numRuns: RUNS_PER_OPERATION, seed: SEED });
      for (let i = 0; i < cases.length; i += 8) {
        await Promise.all(
          cases.slice(i, i + 8).map(async (c) => {
            // Rotation deactivates the key that calls it: give it a fresh one each time.
            const rawKey =
              op.path.endsWith('/rotate') && c.auth === 'valid'
                ? (await createKey(server, { limits: { rateLimitPerMinute: 0 } })).raw
                : key;
            const req = buildRequest(op, c, rawKey);
            const pathParams = op.params.filter((p) => p.in === 'path');
            const paramsOk = v.params(
              `${id} params`,
              op.params,
              Object.fromEntries(Object.entries(c.values).filter(([, x]) => x !== undefined)),
            );
            const bodyOk =
              c.body.kind === 'none'
                ? true
                : c.body.kind === 'json'
                  ? v.body(`${id} body`, op.body!, c.body.value)
                  : !c.body.broken && isJson(c.body.text) && v.body(`${id} body`, op.body!, JSON.parse(c.body.text));
            const pathInvalid = !v.params(
              `${id} path`,
              pathParams,
              Object.fromEntries(pathParams.map((p) => [p.name, c.values[p.name] ?? ''])),
            );
            let res: WireResponse;
            try {
              res = await send(req.url, { method: op.method, headers: req.headers, body: req.body });
            } catch (err) {
              s.count(undefined);
              return s.violation(`${id}: no answer (${(err as Error).message}) for ${req.url.slice(0, 200)}`);
            }
            const authed = !op.keyed || c.auth === 'valid';
            checkResponse(s, op, `${req.url.replace(server.url, '').slice(0, 160)} auth=${c.auth}`, res, v, {
              invalid: authed && (!paramsOk || !bodyOk),
              unauthenticated: c.auth !== 'valid',
              pathInvalid,
            });
          }),
        );
      }
      // Fixed hostile bodies on every operation that takes one: gigantic, deeply nested, empty.
      if (op.body) {
        const path = op.path.replace(/\{[^}]+\}/g, 'fuzz');
        const hostile: [string, string, string][] = [
          ['gigantic', JSON.stringify({ pad: 'x'.repeat(1_200_000) }), 'application/json'],
          ['deeply nested', '['.repeat(5000) + ']'.repeat(5000), 'application/json'],
          ['unterminated nesting', '{"a":'.repeat(20000), 'application/json'],
          ['empty', '', 'application/json'],
          ['charset', '{}', 'application/json; charset=latin1'],
        ];
        for (const [name, body, type] of hostile) {
          const res = await send(`${server.url}${path}`, {
            method: op.method,
            headers: { authorization: `Bearer ${key}`, 'content-type': type },
            body,
          });
          checkResponse(s, op, `hostile body: ${name}`, res, v, {
            invalid: name !== 'charset',
            unauthenticated: false,
            pathInvalid: false,
          });
        }
      }
    }
    s.save();
    expect(s.violations.slice(0, 15)).toEqual([]);
    expect(s.requests).toBeGreaterThan(ops.length * RUNS_PER_OPERATION * 0.9);
  });
});
