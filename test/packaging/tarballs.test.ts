// Issue 22: what `npm pack` produces works outside the repository. The project's tarball gives
// an `ncd` command (installed globally into a temporary prefix, and through `npx --package`);
// the client's tarball builds itself on pack (prepack) and works, with its types, in a fresh ES-module
// project and a fresh CommonJS project. Everything is installed into temporary directories
// outside the checkout, from the local tarballs and the npm registry only (no repository
// node_modules). Needs the npm registry, so it runs in `npm run test:packaging`, not `npm test`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'ncd-tarballs-'));
let server: TestServer;
let key: string;
let projectTarball: string;
let clientTarball: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command in `cwd` with stdin closed and an environment that points nowhere into the
 * checkout: the machine's own variables (PATH, HOME, CA certificates for the registry) without
 * what npm, vitest or the test harness set.
 */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(npm_|VITEST|NODE_OPTIONS$|NODE_PATH$|INIT_CWD$|DATABASE_URL$|REDIS_URL$)/i.test(name))
      continue;
    clean[name] = value;
  }
  Object.assign(
    clean,
    { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    env,
  );
  const child = spawn(cmd, args, { cwd, env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 540_000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr: signal ? `${stderr}\nkilled by ${signal}` : stderr });
    });
  });
}

async function ok(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return (await okRun(cmd, args, cwd, env)).stdout;
}

async function okRun(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const r = await run(cmd, args, cwd, env);
  expect(r.code, `${cmd} ${args.join(' ')} in ${cwd}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}

/** npm's warnings about engines (EBADENGINE) and unreviewed install scripts in an install's output. */
function installWarnings(r: Run): string[] {
  return `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /EBADENGINE|engine|install-scripts/i.test(l));
}

/** Tarballs anywhere in the checkout outside node_modules (packing must leave none behind). */
function tarballsInTree(dir = ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...tarballsInTree(full));
    else if (entry.name.endsWith('.tgz')) found.push(path.relative(ROOT, full));
  }
  return found;
}

async function pack(dir: string): Promise<string> {
  const dest = mkdtempSync(path.join(work, 'pack-'));
  await ok('npm', ['pack', '--pack-destination', dest], dir);
  const [file] = readdirSync(dest).filter((f) => f.endsWith('.tgz'));
  return path.join(dest, file);
}

let tarballsBefore: string[];

beforeAll(async () => {
  server = await startServer();
  await loadGeneratedCompanies(server, 5);
  key = (await createKey(server)).raw;
  tarballsBefore = tarballsInTree();
  projectTarball = await pack(ROOT);
  clientTarball = await pack(path.join(ROOT, 'clients/js'));
}, 600_000);

describe('packing', () => {
  it('leaves no tarball in the checkout (both go to --pack-destination)', () => {
    expect(tarballsInTree()).toEqual(tarballsBefore);
    expect(tarballsBefore).toEqual([]);
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the project tarball', () => {
  it('holds the server and the CLI, and no tests, benchmarks or local data', async () => {
    const listing = await ok('tar', ['-tzf', projectTarball], work);
    const files = listing.split('\n').filter(Boolean);
    expect(files).toContain('package/bin/ncd.mjs');
    expect(files).toContain('package/src/cli/main.ts');
    expect(files).toContain('package/LICENSE');
    expect(files.some((f) => f.startsWith('package/src/store/migrations/'))).toBe(true);
    expect(files.some((f) => f.startsWith('package/reference/'))).toBe(true);
    // `ncd enrich` runs on the client's sources (npm adds the README and LICENSE beside them).
    expect(files).toContain('package/clients/js/src/index.ts');
    const clientExtras = files.filter(
      (f) => f.startsWith('package/clients/') && !f.startsWith('package/clients/js/src/'),
    );
    expect(clientExtras.sort()).toEqual(['package/clients/js/LICENSE', 'package/clients/js/README.md']);
    expect(files.filter((f) => /^package\/(test|bench|data|node_modules|\.ci)\//.test(f))).toEqual([]);
  });

  it('installs into an empty project on this Node without engine or install-script warnings', async () => {
    // The project approves esbuild's postinstall as the README says (package.json "allowScripts");
    // every dependency accepts Node 20 without the checkout's lockfile (a tarball brings none).
    const dir = mkdtempSync(path.join(work, 'empty-'));
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'try-server', private: true, allowScripts: { esbuild: true } }),
    );
    const install = await okRun('npm', ['install', projectTarball], dir);
    expect(installWarnings(install)).toEqual([]);
    const help = await ok(path.join(dir, 'node_modules', '.bin', 'ncd'), ['--help'], dir);
    expect(help).toMatch(/^Usage:/);
  });

  it('installs globally outside the repository: `ncd --help` and `ncd enrich` with NCD_API_KEY', async () => {
    const prefix = path.join(work, 'global');
    // A global install has no project package.json: esbuild's script is allowed on the command line.
    const install = await okRun(
      'npm',
      ['install', '-g', '--allow-scripts=esbuild', '--prefix', prefix, projectTarball],
      work,
    );
    expect(installWarnings(install)).toEqual([]);
    const ncd = path.join(prefix, 'bin', 'ncd');
    const elsewhere = mkdtempSync(path.join(work, 'cwd-'));
    const help = await ok(ncd, ['--help'], elsewhere);
    expect(help).toMatch(/^Usage:/);
    expect(help).toContain('ncd enrich <input.csv>');

    const numbers = [orgNumberFor(0), orgNumberFor(1)];
    writeFileSync(path.join(elsewhere, 'in.csv'), `orgnr,note\n${numbers[0]},a\n${numbers[1]},b\n`);
    const enrich = await run(
      ncd,
      ['enrich', 'in.csv', '--column', 'orgnr', '--out', 'out.csv', '--url', server.url, '--fields', 'name'],
      elsewhere,
      { NCD_API_KEY: key },
    );
    expect(enrich.code, enrich.stderr).toBe(0);
    const out = readFileSync(path.join(elsewhere, 'out.csv'), 'utf8').trim().split('\n');
    expect(out[0]).toBe('orgnr,note,name,enrichStatus');
    expect(out.slice(1).map((l) => l.split(',').at(-1))).toEqual(['found', 'found']);
  });

  it('runs through `npx --package ./tarball ncd --help`', async () => {
    const dir = mkdtempSync(path.join(work, 'npx-'));
    const help = await ok('npx', ['--yes', '--package', projectTarball, 'ncd', '--help'], dir);
    expect(help).toMatch(/^Usage:/);
  });
});

const CLIENT_CHECK = `
import { NcdApiError, NcdClient, type CompanyRecord } from '@nordic-company-data/client';

const client = new NcdClient({ baseUrl: process.env.NCD_URL! }); // the key comes from NCD_API_KEY
const company: CompanyRecord = await client.companies.get(process.env.ORG_NUMBER!);
let code = '';
try {
  await client.companies.get('123');
} catch (err) {
  if (err instanceof NcdApiError) code = err.code;
}
// The types are real: a wrong argument does not compile (an unused expectation would fail).
// @ts-expect-error orgNumber is a string
void (() => client.companies.get(923609016));
console.log(JSON.stringify({ orgNumber: company.orgNumber, name: company.name, code }));
`;

async function clientProject(kind: 'esm' | 'cjs'): Promise<string> {
  const dir = mkdtempSync(path.join(work, `client-${kind}-`));
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: `try-${kind}`, private: true, ...(kind === 'esm' ? { type: 'module' } : {}) }),
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: kind === 'esm' ? 'NodeNext' : 'Node16',
        moduleResolution: kind === 'esm' ? 'NodeNext' : 'Node16',
        strict: true,
        outDir: 'out',
        types: ['node'],
        lib: ['ES2022', 'DOM'],
      },
      include: ['src'],
    }),
  );
  mkdirSync(path.join(dir, 'src'));
  // CommonJS has no top-level await: the same check, wrapped.
  const source = kind === 'esm' ? CLIENT_CHECK : wrapForCjs(CLIENT_CHECK);
  writeFileSync(path.join(dir, 'src', 'check.ts'), source);
  await ok('npm', ['install', clientTarball, 'typescript@5.9.3', '@types/node@20'], dir);
  return dir;
}

function wrapForCjs(src: string): string {
  const lines = src.trim().split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import '));
  return `${imports.join('\n')}\n\nvoid (async () => {\n${body.join('\n')}\n})();\n`;
}

describe('the client tarball', () => {
  it('has no script that runs when it is installed (it was built by prepack)', async () => {
    const manifest = JSON.parse(await ok('tar', ['-xzOf', clientTarball, 'package/package.json'], work));
    for (const hook of ['prepare', 'preinstall', 'install', 'postinstall'])
      expect(manifest.scripts?.[hook], hook).toBeUndefined();
    const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.engines).toEqual(root.engines);
  });

  it('was built on pack: ES module, CommonJS and types', async () => {
    const files = (await ok('tar', ['-tzf', clientTarball], work)).split('\n');
    for (const f of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
      'dist/cjs/package.json',
    ])
      expect(files).toContain(`package/${f}`);
  });

  it.each(['esm', 'cjs'] as const)('works in a fresh %s project, with its types', async (kind) => {
    const dir = await clientProject(kind);
    await ok(path.join(dir, 'node_modules', '.bin', 'tsc'), ['-p', '.'], dir);
    const compiled = readFileSync(path.join(dir, 'out', 'check.js'), 'utf8');
    // The compiled file really loads the package the way the project type says.
    expect(compiled).toMatch(
      kind === 'esm' ? /from '@nordic-company-data\/client'/ : /require\("@nordic-company-data\/client"\)/,
    );
    const orgNumber = orgNumberFor(2);
    const stdout = await ok('node', ['out/check.js'], dir, {
      NCD_URL: server.url,
      NCD_API_KEY: key,
      ORG_NUMBER: orgNumber,
    });
    const result = JSON.parse(stdout.trim());
    expect(result.orgNumber).toBe(orgNumber);
    expect(result.name.length).toBeGreaterThan(0);
    expect(result.code).toBe('validation_failed');
  });
});
