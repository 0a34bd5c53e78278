// Generated stores for the load benchmarks, and the keys and org numbers a run needs.
//   PostgreSQL: database ncd_bench (full, 1.2M) or ncd_bench_small (20k) on BENCH_PG
//               (default postgres://postgres@127.0.0.1:5432), created and loaded when empty.
//   PGlite:     bench/.data/pglite-<count> (loaded when it has no marker file).
// Loading goes through bench/load-store.ts (the real sync jobs: brreg, brreg-subunits, brreg-roles: a company without roles data is completed live on lookup).
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { buildContext, closeContext } from '../src/runtime/build-context.ts';
import { loadConfig } from '../src/config/index.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/runtime/services.ts';
import { ROOT } from './proc.ts';

export type Engine = 'postgresql' | 'pglite';
export type Size = 'small' | 'full';

export const PG_BASE = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432';
/** Fixed so keys made before the server starts verify in it (bench only, never a deployment). */
export const BENCH_SECRET = 'bench-secret-not-for-deployment-0123456789abcdef';
export const COUNT: Record<Size, number> = { small: 20_000, full: 1_200_000 };

export interface Store {
  engine: Engine;
  size: Size;
  count: number;
  env: Record<string, string>;
}

export async function pgQuery<T = any>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

export async function ensureDatabase(name: string): Promise<string> {
  const exists = await pgQuery(`${PG_BASE}/postgres`, 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.length === 0) await pgQuery(`${PG_BASE}/postgres`, `CREATE DATABASE ${name}`);
  return `${PG_BASE}/${name}`;
}

export function runNode(
  args: string[],
  env: Record<string, string>,
  log = true,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const on = (c: Buffer) => {
      out += c.toString();
      if (log) process.stdout.write(c);
    };
    p.stdout.on('data', on);
    p.stderr.on('data', on);
    p.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function load(count: number, env: Record<string, string>) {
  console.log(`loading a ${count}-company store (${JSON.stringify(env)}) …`);
  const r = await runNode(
    ['--import', 'tsx', 'bench/load-store.ts', '--count', String(count), '--jobs', 'brreg,brreg-subunits,brreg-roles'],
    { ...env, SECRET_KEY: BENCH_SECRET },
  );
  if (r.code !== 0) throw new Error('store load failed');
}

/** The store for (engine, size), loaded first when it is empty. */
export async function ensureStore(engine: Engine, size: Size): Promise<Store> {
  const count = COUNT[size];
  if (engine === 'postgresql') {
    // BENCH_PG_DATABASE: a database of your own (several sessions sharing one server).
    const url = await ensureDatabase(
      process.env.BENCH_PG_DATABASE ?? (size === 'full' ? 'ncd_bench' : 'ncd_bench_small'),
    );
    const n = await pgQuery(
      url,
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'companies'`,
    );
    const rows = n[0].n ? (await pgQuery(url, 'SELECT count(*)::int AS n FROM companies'))[0].n : 0;
    if (rows < count * 0.9) await load(count, { DATABASE_URL: url });
    return { engine, size, count, env: { DATABASE_URL: url, SECRET_KEY: BENCH_SECRET } };
  }
  const dir = path.join(ROOT, 'bench/.data', `pglite-${count}`);
  const marker = path.join(dir, '.bench-loaded');
  if (!existsSync(marker)) {
    await load(count, { DATA_DIR: dir });
    writeFileSync(marker, new Date().toISOString());
  }
  return { engine, size, count, env: { DATA_DIR: dir, SECRET_KEY: BENCH_SECRET } };
}

function shuffled<T>(list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/**
 * Keys with the per-minute limit lifted (internal tier, `rateLimitPerMinute: 0`, as
 * `ncd keys set-limits <prefix> --rpm 0`), a sample of org numbers in the store, and one
 * record's org number. Opens the store in this process and closes it before the server starts
 * (PGlite's data directory has one owner at a time).
 */
export async function prepare(store: Store, opts: { keys?: number; sample?: number } = {}) {
  const config = loadConfig({
    ...process.env,
    ...store.env,
    DEMO_DATA: 'off',
    SYNC_SCHEDULE: 'off',
    LOG_LEVEL: 'warn',
  });
  const ctx = await buildContext(config, { logger: createLogger('warn') });
  try {
    const { keys } = createServices(ctx);
    const raw: string[] = [];
    for (let i = 0; i < (opts.keys ?? 1); i++) {
      const k = await keys.register({
        projectName: `bench-${Date.now()}-${i}-${Math.random().toString(36).slice(2, 8)}`,
        email: 'bench@example.com',
      });
      await keys.setTier(k.keyPrefix, 'internal');
      await keys.setLimits(k.keyPrefix, { rateLimitPerMinute: 0 });
      raw.push(k.raw);
    }
    const sample = opts.sample ?? 10_000;
    // Random live companies: a spread of ids over the whole table, not its first rows.
    const [{ top }] = (await ctx.store.pool.query('SELECT COALESCE(max(id), 0)::float8 AS top FROM companies')).rows;
    const res = sample
      ? await ctx.store.pool.query(
          `SELECT org_number FROM companies WHERE country = 'NO' AND NOT is_deleted AND id % $1 = 0 LIMIT $2`,
          [Math.max(1, Math.floor(Number(top) / sample / 1.2)), sample],
        )
      : { rows: [] };
    const orgNumbers: string[] = shuffled(res.rows.map((r: { org_number: string }) => r.org_number));
    // Lookups over every country in the store, of complete records: a bulk-loaded Norwegian one
    // without roles would wait on a live fetch from brreg, which a bench has no upstream for.
    const lookups = sample
      ? await ctx.store.pool.query(
          `SELECT org_number, country FROM companies
            WHERE NOT is_deleted AND (country <> 'NO' OR roles_hash IS NOT NULL OR fetched_at IS NOT NULL)
            ORDER BY random() LIMIT $1`,
          [sample],
        )
      : { rows: [] };
    const lookupPaths: string[] = lookups.rows.map(
      (r: { org_number: string; country: string }) => `/api/companies/${r.org_number}?country=${r.country}`,
    );
    const version =
      store.engine === 'postgresql'
        ? (await ctx.store.pool.query('SHOW server_version')).rows[0].server_version
        : 'PGlite';
    return { keys: raw, orgNumbers, lookupPaths, engineVersion: String(version) };
  } finally {
    await closeContext(ctx);
  }
}
