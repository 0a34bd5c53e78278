// Every example of README.md, run as written: each shell command in bash (the real curl, the real
// `npx ncd`, the real `npm start`), the typed-client snippet through tsx, and each MCP
// configuration by connecting with it, against a server that loaded the demo dataset on its
// first start (generated from a fixed seed, so the org numbers the README names exist).
//
// What changes from the text, and nothing else:
// - the address: `localhost:3000` becomes this test's server (`npm start` gets its port in PORT);
// - the key placeholders the README asks the reader to fill in: `ncd_…` and `ncd_YOUR_KEY` (the
//   raw key) and `ncd_AbCd1234` (its prefix); `$KEY` and `$NCD_API_KEY` hold a key, as the quick
//   start and the setup page leave them (the quick start's own block makes and uses its own);
// - the destination's webhook `https://hooks.example.com/in`, the reader's own receiver: same
//   host, which a fake DNS resolves to this test's loopback receiver, over plain http on its port
//   (the server has no seam for TLS to a fake on port 443).
// The environment holds what a reader's shell would: the store of the running server (DATA_DIR,
// or DATABASE_URL and REDIS_URL), and the upstream URLs, pointing at local fakes of the
// registries. The commands run in a directory holding the files they name (test fixtures).
// A `# -> NNN {…}` after a command is the status it must answer and the literal fields it must
// hold; without one, a curl must answer 2xx and any other command exit 0. An example that cannot
// run here is named in NOT_RUN with why; a new example that is in neither fails the first test.
import { existsSync, readFileSync, writeFileSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../fakes/webhook-receiver.ts';
import { ROOT, TEST_SECRET } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import {
  holdsField,
  literalFields,
  readmeBlocks,
  shellCommands,
  type ReadmeBlock,
  type ReadmeCommand,
} from '../helpers/readme-examples.ts';
import { bash, curl, isJson, npmStart, type Ran } from '../helpers/readme-runner.ts';
import { createReadmeWorkspace, WOLT_BUSINESS_ID, type ReadmeWorkspace } from '../helpers/readme-workspace.ts';
import { createTestDatabase, startServer, type TestDatabase, type TestServer } from '../helpers/server.ts';

/** Examples that cannot run in this test, each with why (matched against the command). */
const NOT_RUN: { match: RegExp; why: string }[] = [
  { match: /^npm install$/, why: 'installs the dependencies this test runs with; CI runs `npm ci` on every push' },
  { match: /npm test$/, why: 'the whole suite, this test among it' },
  {
    match: /npm run (test:\w+|typecheck)\b/,
    why: 'another suite or check, which CI runs on its own (the script is checked to exist)',
  },
  {
    match: /user@db:5432/,
    why: "names the reader's PostgreSQL and Redis hosts; in a PostgreSQL run the quick start's `npm start` runs on the test's DATABASE_URL and REDIS_URL",
  },
  {
    match: /ncd@primary:5432/,
    why: "names the reader's primary and replica hosts; test/e2e/read-replicas.server-only.test.ts runs DATABASE_READ_URL against a real streaming replica",
  },
  {
    match: /^cp \.env\.example \.env$|^docker /,
    why: 'needs Docker with compose (not where the suite runs); test/packaging/container-files.test.ts checks the files',
  },
  {
    match: /^npm pack|^npm install -g|^npx --package|^cd \.\.\/my-app/,
    why: '`npm run test:packaging` packs and installs both tarballs outside the repo (needs the npm registry)',
  },
  {
    match: /bench\/|npm run (bench|eval:screening)\b/,
    why: 'a benchmark of minutes to hours (the script is checked to exist)',
  },
];

type Plan = 'npm start' | 'quick start' | 'curl' | 'ncd' | 'synopsis' | 'shell state' | { why: string };

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const blocks = readmeBlocks(README);
const commands = blocks.filter((b) => b.lang === 'sh' || b.lang === 'bash').flatMap(shellCommands);
const quickStart = commands.find((c) => c.command.includes('/api/keys/register'))!.block;
const demoNumbers = [...new Set(README.match(/\b810\d{6}\b/g) ?? [])];

const isAssignment = (c: ReadmeCommand) => /^(export )?[A-Z_]+=\S+$/.test(c.command);

function plan(c: ReadmeCommand): Plan | undefined {
  const skipped = NOT_RUN.find((n) => n.match.test(c.command));
  if (skipped) return { why: skipped.why };
  if (c.command === 'npm start') return 'npm start';
  if (c.block === quickStart) return 'quick start';
  if (isAssignment(c)) return 'shell state';
  if (/^curl /.test(c.command)) return 'curl';
  if (/^npx ncd /.test(c.command)) return /<\w+>|\[-/.test(c.command) ? 'synopsis' : 'ncd';
  return undefined;
}

interface Fill {
  url: string;
  key: string;
  keyPrefix?: string;
  webhook?: string;
}

/** The example with the address, the key placeholders and the webhook filled in (see the top). */
function filled(text: string, f: Fill): string {
  let out = text.replace(/(http:\/\/)?localhost:3000/g, f.url).replace(/ncd_YOUR_KEY|ncd_…/g, f.key);
  if (f.keyPrefix) out = out.replace(/ncd_AbCd1234/g, f.keyPrefix);
  if (f.webhook) out = out.replace(/https:\/\/hooks\.example\.com/g, f.webhook);
  return out;
}

/** Assignments earlier in the same block: the shell state a reader has when reaching `c`. */
const stateBefore = (c: ReadmeCommand) =>
  commands
    .filter((s) => s.block === c.block && s.line < c.line && isAssignment(s))
    .map((s) => s.command)
    .join('\n');

/** Checks a curl answer against what the README shows for it. */
function expectAnswer(c: ReadmeCommand, res: { status: number; body: string }, f: Fill) {
  const what = `README.md:${c.line} ${c.command}\n${res.body.slice(0, 400)}`;
  if (c.expectedStatus) expect(res.status, what).toBe(c.expectedStatus);
  else expect(res.status >= 200 && res.status < 300, what).toBe(true);
  if (!c.expectedBody) return;
  const body = JSON.parse(res.body);
  for (const [key, value] of literalFields(filled(c.expectedBody, f)))
    expect(holdsField(body, key, value), `${what}\n"${key}": ${JSON.stringify(value)}`).toBe(true);
}

let db: TestDatabase;
let port: number;
let workspace: ReadmeWorkspace;

beforeAll(async () => {
  workspace = await createReadmeWorkspace(demoNumbers);
  db = await createTestDatabase();
  port = await closedPort();
}, 60_000);
afterAll(async () => {
  await workspace?.close();
  await db?.drop();
});

describe('README examples', () => {
  it('runs every example, or names it in NOT_RUN with why', () => {
    const unplanned = commands.filter((c) => plan(c) === undefined).map((c) => `README.md:${c.line} ${c.command}`);
    expect(unplanned, 'examples neither run nor named in NOT_RUN').toEqual([]);
    for (const n of NOT_RUN)
      expect(
        commands.some((c) => n.match.test(c.command)),
        `NOT_RUN ${n.match} matches an example`,
      ).toBe(true);
    const other = blocks.filter((b) => !['sh', 'bash', 'json', 'ts'].includes(b.lang));
    expect(other.map((b) => `README.md:${b.line} ${b.lang || '(no language)'}`)).toEqual([]);
    expect(commands.length).toBeGreaterThanOrEqual(60);
    expect(demoNumbers.length).toBeGreaterThanOrEqual(2);
  });

  it('names only npm scripts and files that exist, also in the examples it does not run', async () => {
    const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
    for (const c of commands) {
      for (const m of c.command.matchAll(/npm run (\S+)/g)) expect(scripts[m[1]], `README.md:${c.line}`).toBeDefined();
      for (const m of c.command.matchAll(/\b((?:bench|src|scripts)\/[\w./-]+\.ts)\b/g))
        expect(existsSync(path.join(ROOT, m[1])), `README.md:${c.line} ${m[1]}`).toBe(true);
    }
    for (const file of ['compose.yaml', 'Dockerfile', '.env.example', 'clients/js/package.json'])
      expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    // Where Docker has compose, the compose file must at least be valid.
    if ((await bash('docker compose version', {})).code === 0)
      expect((await bash('docker compose config --quiet', {})).code).toBe(0);
  });
});

describe('the quick start, on a server started with `npm start`', () => {
  let url: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    // A fresh store: the server loads the demo dataset before it listens.
    const started = await npmStart({ ...db.env, PORT: String(port), SECRET_KEY: TEST_SECRET });
    url = started.url;
    stop = started.stop;
  }, 600_000);
  afterAll(() => stop?.());

  it('serves the API, the docs and the OpenAPI document', async () => {
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect((await http(url, 'GET', '/api/health')).status).toBe(200);
    const docs = await fetch(`${url}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    expect((await http(url, 'GET', '/openapi.json')).body.openapi).toMatch(/^3\./);
  });

  it('runs the key flow as written: register, usage, lookups, rotate, then 401', async () => {
    const flow = commands.filter((c) => plan(c) === 'quick start');
    expect(flow.length).toBeGreaterThanOrEqual(7);
    let fill: Fill = { url, key: 'ncd_…' };
    for (const c of flow) {
      if (isAssignment(c)) continue;
      const res = await curl(`${filled(stateBefore(c), fill)}\n${filled(c.command, fill)}`, {});
      if (c.command.includes('/register')) {
        const raw = JSON.parse(res.body);
        fill = { url, key: raw.raw, keyPrefix: raw.keyPrefix };
      }
      expectAnswer(c, res, fill);
    }
    expect(fill.key).toMatch(/^ncd_\w{30,}/);
  });
});

describe('every other example, on the demo dataset', () => {
  let server: TestServer;
  let fill: Fill;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startServer({
      database: db,
      port,
      env: { ...workspace.env, ALLOW_PRIVATE_DESTINATIONS: 'true', EVENT_STREAM_HEARTBEAT_MS: '200' },
      overrides: { resolver: fakeDns },
    });
    const reg = await http(server.url, 'POST', '/api/keys/register', {
      body: { projectName: 'README examples', email: 'readme@example.com' },
    });
    await server.services.keys.setTier(reg.body.keyPrefix, 'internal');
    fill = {
      url: server.url,
      key: reg.body.raw,
      keyPrefix: reg.body.keyPrefix,
      webhook: `http://hooks.example.com:${workspace.webhook.port}`,
    };
    env = { ...server.env, KEY: fill.key, NCD_API_KEY: fill.key };
  }, 120_000);
  afterAll(() => server?.close());

  it('names demo org numbers that exist in the demo dataset', async () => {
    for (const n of demoNumbers) {
      const res = await http(server.url, 'GET', `/api/companies/${n}`, { key: fill.key });
      expect(res.status, `${n} is in the demo dataset`).toBe(200);
    }
  });

  it('runs every curl example, the push to a webhook and the event stream included', async () => {
    const curls = commands.filter((c) => plan(c) === 'curl');
    expect(curls.length).toBeGreaterThanOrEqual(5);
    for (const c of curls) {
      const stream = c.command.includes('/api/events/stream');
      const res = await curl(filled(c.command, fill), env, stream ? 2 : 30, workspace.dir);
      expectAnswer(c, res, fill);
      // A stream stays open: curl is cut after 2 s, by which it has had heartbeats (every 200 ms here).
      if (stream) expect(res.body).toContain(': heartbeat');
      else expect(res.code, `README.md:${c.line}`).toBe(0);
    }
    // The push delivered the companies it names, once.
    const push = curls.find((c) => c.command.includes('/api/push/'))!;
    const pushed = workspace.webhook.requests.map((r) => JSON.parse(r.body).companies.map((x: any) => x.orgNumber));
    expect(pushed).toEqual([JSON.parse(/'(\{.*\})'/s.exec(push.command)![1]).orgNumbers]);
  });

  it('runs every `npx ncd` example (syncs from fake registries, the CSV enrichment) and checks each synopsis', async () => {
    const help = await bash('npx ncd --help', env, workspace.dir);
    const usage = help.stdout.split('\n').map((l) => l.trim().replace(/\s+/g, ' '));
    for (const c of commands.filter((x) => plan(x) === 'synopsis')) {
      const synopsis = c.command.replace(/^npx /, '').replace(/\s+/g, ' ');
      expect(
        usage.some((l) => l.startsWith(synopsis)),
        `README.md:${c.line} ${synopsis} is in ncd --help`,
      ).toBe(true);
    }
    const ncd = commands.filter((c) => plan(c) === 'ncd');
    expect(ncd.length).toBeGreaterThanOrEqual(20);
    // A block's commands run in order (a delta after its full list); blocks three at a time.
    const queue = [...new Set(ncd.map((c) => c.block))].map((b) => ncd.filter((c) => c.block === b));
    const failures: string[] = [];
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift())
        for (const c of group) {
          const r = await bash(`${filled(stateBefore(c), fill)}\n${filled(c.command, fill)}`, env, workspace.dir);
          // Through a pipe every operator command prints JSON (help is text; enrich writes its CSV;
          // evidence verify prints its report of checks, JSON only with --json).
          const json = /--help|ncd enrich|ncd evidence verify/.test(c.command) || isJson(r.stdout);
          if (r.code !== 0 || !json)
            failures.push(
              `README.md:${c.line} ${c.command}: exit ${r.code}\n${r.stdout.slice(0, 300)}\n${r.stderr.slice(-600)}`,
            );
        }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(failures).toEqual([]);
    // What the syncs loaded is served.
    const fi = await http(server.url, 'GET', `/api/companies/${WOLT_BUSINESS_ID}?country=FI`, { key: fill.key });
    expect(fi.status).toBe(200);
    const enriched = readFileSync(path.join(workspace.dir, 'enriched.csv'), 'utf8').trim().split('\n');
    expect(enriched[0]).toBe('orgnr,customer,name,employeeCount,revenue,ceoName,website,enrichStatus');
    expect(enriched.slice(1).map((l) => l.split(',').at(-1))).toEqual(demoNumbers.map(() => 'found'));
    // Each command is a new process (npx, tsx, and in server mode the store opened); on a loaded
    // machine that is slow, so the bound is generous.
  }, 900_000);

  it('connects with each MCP configuration', async () => {
    const configs = blocks.filter((b) => b.lang === 'json');
    expect(configs.length).toBeGreaterThanOrEqual(2);
    for (const b of configs) {
      const mcp = JSON.parse(filled(b.text, fill)).mcpServers['nordic-company-data'];
      expect(mcp.type).toBe('http');
      const res = await fetch(mcp.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...mcp.headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'readme', version: '1' } },
        }),
      });
      if (mcp.headers) {
        expect(res.status, `README.md:${b.line}`).toBe(200);
        expect(
          ((await res.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name,
        ).toBeTruthy();
      } else {
        // Without a key the client is sent to the OAuth sign-in the README describes.
        expect(res.status, `README.md:${b.line}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
      }
    }
  });

  it('runs the typed client example through tsx', async () => {
    const [snippet] = blocks.filter((b) => b.lang === 'ts');
    const r = await runClientExample(snippet, fill, env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^400 validation_failed \[/m);
  });
});

/** DNS for the server: the README's webhook host is this test's loopback receiver. */
const fakeDns = {
  async lookup(hostname: string) {
    if (hostname !== 'hooks.example.com' && hostname !== 'localhost')
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address: '127.0.0.1', family: 4 as const }];
  },
};

/** The typed client snippet in a project of its own, the package resolved to the client's sources. */
function runClientExample(snippet: ReadmeBlock, fill: Fill, env: Record<string, string>): Promise<Ran> {
  const dir = path.join(workspace.dir, 'my-app');
  const pkg = path.join(dir, 'node_modules/@nordic-company-data/client');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name: '@nordic-company-data/client', type: 'module', exports: './src/index.ts' }),
  );
  symlinkSync(path.join(ROOT, 'clients/js/src'), path.join(pkg, 'src'));
  writeFileSync(path.join(dir, 'example.ts'), filled(snippet.text, fill));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  return bash('node --import tsx example.ts', env, dir);
}
