// What the project says it is, said the same everywhere a reader meets it first: the README's
// introduction, package.json's description, the landing page (GET /), the API reference (the
// OpenAPI info.description behind /docs), the MCP server's instructions and the client's README
// all name Denmark, procurement, OAuth, monitoring, statistics and matching. One minimum Node
// version, the `engines` of both package.json files, is the one every document states. The
// README's MCP table lists exactly the tools the server registers, and screen_entity takes the
// field names of the REST screening it mirrors.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const json = (file: string) => JSON.parse(read(file));

const CAPABILITIES: Record<string, RegExp> = {
  Denmark: /\b(Denmark|Danish)\b/,
  procurement: /procurement/i,
  OAuth: /\bOAuth\b/,
  monitoring: /monitoring/i,
  statistics: /statistic/i,
  matching: /\bmatching\b/i,
};

let server: TestServer;
let key: string;
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const mcp = async (method: string, params: unknown = {}) =>
  (
    await http(server.url, 'POST', '/api/mcp', {
      key,
      headers: MCP_HEADERS,
      body: { jsonrpc: '2.0', id: 1, method, params },
    })
  ).body.result;

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'internal' })).raw;
});
afterAll(() => server?.close());

/** The README's text from the title to the first section. */
const readmeIntro = () => read('README.md').split(/^## /m)[0];
/** The client README's text before its first code block. */
const clientIntro = () => read('clients/js/README.md').split('```')[0];

describe('what the project says it is', () => {
  const sources: [string, () => Promise<string> | string][] = [
    ['README introduction', readmeIntro],
    ['package.json description', () => json('package.json').description],
    ['landing page', async () => (await http(server.url, 'GET', '/')).body],
    [
      'OpenAPI info.description (/docs)',
      async () => (await http(server.url, 'GET', '/openapi.json')).body.info.description,
    ],
    [
      'MCP server instructions',
      async () =>
        (
          await mcp('initialize', {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          })
        ).instructions,
    ],
    ['clients/js/README.md introduction', clientIntro],
  ];

  it.each(sources)('%s names every capability', async (_, get) => {
    const text = String(await get());
    expect(Object.keys(CAPABILITIES).filter((c) => !CAPABILITIES[c].test(text))).toEqual([]);
  });
});

describe('the minimum Node version', () => {
  const engines = json('package.json').engines.node as string;
  const version = semver.minVersion(engines)!;
  const stated = `Node.js ${version.major}.${version.minor} or newer`;

  it('is the same in both package.json files', () => {
    expect(json('clients/js/package.json').engines.node).toBe(engines);
  });

  it.each(['README.md', 'clients/js/README.md', 'CONTRIBUTING.md', 'docs/architecture.md', 'Dockerfile'])(
    '%s states it, and no other',
    (file) => {
      const text = read(file).replace(/\s+/g, ' ');
      expect(text).toContain(stated);
      const others = [...text.matchAll(/Node(?:\.js)? ?(\d+(?:\.\d+)?)(\+| or newer)/g)].map((m) => m[0]);
      expect(others.filter((m) => !m.startsWith(stated))).toEqual([]);
    },
  );
});

describe('the README MCP table', () => {
  it('lists exactly the tools the server registers', async () => {
    const registered = ((await mcp('tools/list')).tools as { name: string }[]).map((t) => t.name).sort();
    const section = read('README.md')
      .split(/^## MCP$/m)[1]
      .split(/^#{2,3} /m)[0];
    const listed = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]).sort();
    expect(registered.length).toBeGreaterThan(20);
    expect(listed).toEqual(registered);
  });
});

describe('screening over MCP and REST', () => {
  it('screen_entity takes the fields of POST /api/screening/match; screen_company those of GET /api/screening/{orgNumber}', async () => {
    const tools = (await mcp('tools/list')).tools as { name: string; inputSchema: { properties: object } }[];
    const input = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties).sort();
    const doc = (await http(server.url, 'GET', '/openapi.json')).body;
    const body = doc.paths['/api/screening/match'].post.requestBody.content['application/json'].schema;
    const bodySchema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    expect(input('screen_entity')).toEqual(Object.keys(bodySchema.properties).sort());
    const company = doc.paths['/api/screening/{orgNumber}'].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(input('screen_company')).toEqual(company);
  });
});
