// One auth suite for every route (DESIGN.md "Tests"): walks /openapi.json of the real server and
// sends every secured operation a request with no key and one with a wrong key. Public operations
// and undocumented internal routes are explicit lists here, so a new route is either documented
// and covered, or someone decided (and wrote down why) that it is public or internal.
import { afterAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { startServer } from '../helpers/server.ts';

/** Operations anyone may call without a key. */
const PUBLIC = [
  'POST /api/keys/register', // how a key is obtained
  'POST /api/access-requests', // asking for a higher tier before having one
  'GET /api/health', // load balancers and uptime checks
  'GET /api/coverage', // what the data covers, shown before sign-up
  'GET /.well-known/jwks.json', // the evidence packs' public keys, for anyone to verify a pack
];

/** Registered routes that /openapi.json does not describe, each with the reason. */
const INTERNAL: { methods: string[]; url: RegExp; why: string }[] = [
  { methods: ['GET'], url: /^\/$/, why: 'landing page (HTML): what this server is, how to get a key' },
  { methods: ['GET'], url: /^\/openapi\.json$/, why: 'the document itself' },
  { methods: ['GET', 'HEAD'], url: /^\/docs(\/.*)?$/, why: 'Swagger UI and its assets' },
  { methods: ['GET'], url: /^\/errors$/, why: 'errors page (HTML): every error code, linked from error bodies' },
  { methods: ['GET'], url: /^\/setup(\/assets\/[\w.-]+)?$/, why: 'setup page for a new key (HTML) and its assets' },
  { methods: ['POST'], url: /^\/internal\/operator$/, why: 'ncd hand-off to a running server; token from DATA_DIR' },
  { methods: ['GET', 'DELETE'], url: /^\/api\/mcp$/, why: 'MCP transport methods a stateless server refuses (405)' },
  {
    methods: ['GET', 'OPTIONS'],
    url: /^\/\.well-known\/oauth-(protected-resource(\/api\/mcp)?|authorization-server)$/,
    why: 'OAuth discovery metadata (RFC 9728, RFC 8414): public by definition',
  },
  {
    methods: ['GET', 'POST', 'OPTIONS'],
    url: /^\/api\/oauth\/(register|authorize|token|revoke)$/,
    why: 'OAuth endpoints for MCP clients: RFC formats (form bodies, RFC 6749 errors), described by the metadata',
  },
  {
    methods: ['GET'],
    url: /^\/console(\/companies\/:orgNumber|\/usage|\/destinations|\/watchlists|\/assets\/:file)?$/,
    why: 'web console (HTML shell and its bundle); its data comes from the documented API with the user key',
  },
  {
    methods: ['GET', 'POST'],
    url: /^\/api\/integrations\/(hubspot\/(webhook|install|callback)|attio\/webhook)$/,
    why: 'CRM webhooks (vendor-signed bodies) and the HubSpot OAuth install: refusals in the crm-* e2e tests',
  },
  {
    methods: ['GET', 'POST'],
    url: /^\/api\/reconcile\/:token(\/preview|\/suggest\/(entity|property|type)|\/extend\/propose)?$/,
    why: 'OpenRefine reconciliation service (W3C protocol; the key is a path token): refusals in reconcile.test.ts',
  },
];

/** A valid value for each path parameter, so the request gets as far as auth would let it. */
const PATH_SAMPLES: Record<string, string> = {
  orgNumber: '923609016', // valid mod-11 check digit
  name: 'crm-webhook',
  destinationName: 'crm-webhook',
  noticeId: '2026-107304',
  id: 'ev_0123456789abcdef01234567', // an evidence pack id
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const WRONG_KEY = 'ncd_' + 'Z'.repeat(38); // well-formed, never issued

const server = await startServer();
afterAll(() => server.close());
const doc = (await http(server.url, 'GET', '/openapi.json')).body;

interface Operation {
  id: string;
  method: string;
  path: string;
  secured: boolean;
  hasBody: boolean;
}

const operations: Operation[] = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => {
    const op = item[m];
    const security: object[] = op.security ?? doc.security ?? [];
    return {
      id: `${m.toUpperCase()} ${path}`,
      method: m.toUpperCase(),
      path,
      secured: security.some((requirement) => Object.keys(requirement).length > 0),
      hasBody: Boolean(op.requestBody),
    };
  }),
);
const secured = operations.filter((o) => o.secured);
const documented = new Set(operations.map((o) => o.id));

function concretePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = PATH_SAMPLES[name];
    if (value === undefined) throw new Error(`no sample value for path parameter {${name}}: add one to PATH_SAMPLES`);
    return encodeURIComponent(value);
  });
}

/** Fastify's `/a/:b` as OpenAPI's `/a/{b}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('the auth suite', () => {
  it('finds the operations of /openapi.json', () => {
    expect(secured.length).toBeGreaterThanOrEqual(20);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('knows every public operation by name, and nothing listed public is secured', () => {
    const open = operations.filter((o) => !o.secured).map((o) => o.id);
    expect(open.sort()).toEqual([...PUBLIC].sort());
  });

  it('finds every registered route in /openapi.json or on the internal list', () => {
    const gets = new Set(server.routes.filter((r) => r.method === 'GET').map((r) => r.url));
    const unexplained = server.routes
      .filter((r) => !documented.has(`${r.method} ${openApiPath(r.url)}`))
      // Fastify adds a HEAD twin to each GET, with the GET's hooks and config.
      .filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
      .filter((r) => !INTERNAL.some((i) => i.methods.includes(r.method) && i.url.test(r.url)))
      .map((r) => `${r.method} ${r.url}`);
    expect(unexplained).toEqual([]);
  });

  it('has no stale internal entries', () => {
    const unused = INTERNAL.filter(
      (i) => !server.routes.some((r) => i.methods.includes(r.method) && i.url.test(r.url)),
    );
    expect(unused.map((i) => i.why)).toEqual([]);
  });
});

describe.each(secured.map((o) => [o.id, o] as const))('%s', (_id, op) => {
  const path = concretePath(op.path);
  const body = op.hasBody ? {} : undefined;

  it('answers 401 missing_api_key without a key', async () => {
    const res = await http(server.url, op.method, path, { body });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'missing_api_key', error: 'Missing API key' });
  });

  it('answers 401 invalid_api_key with a wrong key', async () => {
    const res = await http(server.url, op.method, path, { body, key: WRONG_KEY });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'invalid_api_key', error: 'Invalid API key' });
  });

  if (op.method === 'GET') {
    it('answers HEAD without a key with 401 too', async () => {
      expect((await http(server.url, 'HEAD', path)).status).toBe(401);
    });
  }
});

describe.each(operations.filter((o) => !o.secured).map((o) => [o.id, o] as const))('%s (public)', (_id, op) => {
  it('is served without a key', async () => {
    const res = await http(server.url, op.method, concretePath(op.path), { body: op.hasBody ? {} : undefined });
    expect(res.status).not.toBe(401);
    expect(res.status).toBeLessThan(500);
  });
});
