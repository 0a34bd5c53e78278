// The container files, checked for what issue 22 asks of them where no container engine can
// build and start them (CI: .ci/packaging.sh says why). hadolint is not packaged for Debian
// bookworm, so the Dockerfile's rules are checked here; `docker-compose config` (Debian's) also
// validates compose.yaml in CI when it is installed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// `yaml` comes with @fastify/swagger (a production dependency), which parses YAML itself.
import { parse } from 'yaml';
import { SHUTDOWN_DEADLINE_MS } from '../../src/config/http.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

describe('Dockerfile', () => {
  const all = instructions(read('Dockerfile'));
  const stages = all.filter((i) => i.op === 'FROM');
  const last = all.slice(all.lastIndexOf(stages.at(-1)!));

  it('is multi-stage, installing production dependencies only from the lockfile', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const installs = all.filter((i) => i.op === 'RUN' && /\bnpm (ci|install)\b/.test(i.args));
    expect(installs.length).toBeGreaterThan(0);
    for (const i of installs) expect(i.args).toMatch(/npm ci\b.*--omit=dev/);
    // The final stage installs nothing: it copies node_modules from the dependency stage.
    expect(last.filter((i) => i.op === 'RUN' && /\bnpm\b/.test(i.args))).toEqual([]);
    expect(last.some((i) => i.op === 'COPY' && /--from=\S+ \/app\/node_modules/.test(i.args))).toBe(true);
  });

  it('runs as a non-root user, with data in a volume and a health check on /api/health', () => {
    const user = last.filter((i) => i.op === 'USER').at(-1);
    expect(user?.args).toBeDefined();
    expect(user!.args).not.toMatch(/^(root|0)(:|$)/);
    expect(last.find((i) => i.op === 'VOLUME')?.args).toContain('/data');
    expect(last.find((i) => i.op === 'ENV' && /DATA_DIR=\/data/.test(i.args))).toBeDefined();
    expect(last.find((i) => i.op === 'HEALTHCHECK')?.args).toMatch(/CMD .*\/api\/health/);
    expect(last.find((i) => i.op === 'ENTRYPOINT')?.args).toBe('["/app/docker/entrypoint.sh"]');
  });

  it('copies only paths that exist, and what the server needs at run time', () => {
    const sources = all
      .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    for (const s of sources) expect(existsSync(path.join(ROOT, s)), s).toBe(true);
    for (const needed of ['package.json', 'package-lock.json', 'bin', 'src', 'reference', 'clients/js/src'])
      expect(sources, needed).toContain(needed);
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).toContain('node_modules');
    expect(ignored).toContain('.env');
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<string, Record<string, any>>;
    volumes: Record<string, unknown>;
  };
  const { api, db, redis } = compose.services;

  it('runs the API on PostgreSQL with pg_trgm and on Redis, each with a health check', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'db', 'redis']);
    for (const s of [api, db, redis]) expect(s.healthcheck?.test).toBeDefined();
    expect(api.build).toBe('.');
    expect(api.depends_on).toEqual({ db: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    expect(api.environment.DATABASE_URL).toMatch(/^postgres:\/\/ncd:.*@db:5432\/ncd$/);
    expect(api.environment.REDIS_URL).toBe('redis://redis:6379');
    expect(api.environment.HOST).toBe('0.0.0.0');
    expect(api.volumes).toContain('api-data:/data');
    expect(String(api.healthcheck.test)).toContain('/api/health');
    expect(db.image).toMatch(/^postgres:1[6-9]/);
    const init = (db.volumes as string[]).find((v) => v.includes('docker-entrypoint-initdb.d'))!;
    const initFile = path.join(ROOT, init.split(':')[0]);
    expect(readFileSync(initFile, 'utf8')).toMatch(/^CREATE EXTENSION IF NOT EXISTS pg_trgm;$/m);
    expect(redis.image).toMatch(/^redis:/);
    expect(Object.keys(compose.volumes).sort()).toEqual(['api-data', 'db-data']);
  });

  it("gives the API longer to stop than the server's own shutdown deadline", () => {
    // Compose durations: 1h2m3s, 90s, 500ms (no unit: seconds) — docker's default is 10 s.
    const duration = (text: string) => {
      const parts = [...String(text).matchAll(/(\d+(?:\.\d+)?)(ms|us|h|m|s)?/g)];
      expect(parts.map((p) => p[0]).join(''), text).toBe(String(text));
      const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001 };
      return parts.reduce((ms, [, n, u]) => ms + Number(n) * unit[u ?? 's'], 0);
    };
    expect(api.stop_grace_period, 'stop_grace_period').toBeDefined();
    // A few seconds beyond the deadline: the process exits at the deadline, then docker waits.
    expect(duration(api.stop_grace_period)).toBeGreaterThanOrEqual(SHUTDOWN_DEADLINE_MS + 5000);
    expect(duration('1m30s')).toBe(90_000);
  });

  it('passes only variables that config.ts reads', () => {
    const example = read('.env.example');
    for (const name of Object.keys(api.environment)) expect(example, name).toMatch(new RegExp(`^# ${name}=`, 'm'));
  });
});
