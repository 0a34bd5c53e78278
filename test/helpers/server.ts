// Starts the real server (real HTTP on a free loopback port, real database) for a test file.
import { randomBytes } from 'node:crypto';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type AppOverrides, type BuiltApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config/index.ts';
import { createLogger } from '../../src/logger.ts';
import { databaseUrl, serverMode, TEST_SECRET, TMP } from './env.ts';

export interface TestServer extends BuiltApp {
  url: string;
  config: Config;
  /** Environment that starts another process on the same database. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface TestDatabase {
  /** Environment variables that select this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh database cloned from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const id = randomBytes(5).toString('hex');
  if (serverMode) {
    const name = `${inject('runPrefix')}${id}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
    await admin.end();
    const dataDir = path.join(TMP, `data-${id}`);
    return {
      env: {
        DATABASE_URL: databaseUrl(name),
        DATA_DIR: dataDir,
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: name } : {}),
      },
      async drop() {
        const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
        await c.end();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const dataDir = path.join(TMP, `data-${id}`);
  cpSync(inject('templateDir'), dataDir, { recursive: true });
  return {
    env: { DATA_DIR: dataDir },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startServer(
  opts: {
    env?: Record<string, string>;
    overrides?: AppOverrides;
    database?: TestDatabase;
    /** A fixed port (else any free one); the DATA_DIR lock names it, so `ncd` can hand commands over. */
    port?: number;
  } = {},
): Promise<TestServer> {
  const database = opts.database ?? (await createTestDatabase());
  const env: Record<string, string> = {
    SECRET_KEY: TEST_SECRET,
    DEMO_DATA: 'off',
    SYNC_SCHEDULE: 'off',
    LOG_LEVEL: 'warn',
    ...database.env,
    ...(opts.port ? { PORT: String(opts.port) } : {}),
    ...(opts.env ?? {}),
  };
  const config = loadConfig(env);
  const built = await buildApp(config, { logger: createLogger(env.LOG_LEVEL ?? 'warn'), ...opts.overrides });
  await built.app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const port = (built.app.server.address() as { port: number }).port;
  const url = `http://127.0.0.1:${port}`;
  // The port is known only now: point public links (setupUrl, upgradeUrl) at it.
  built.ctx.config.baseUrl = url;
  built.ctx.config.upgradeUrl = `${url}/activate`;
  return {
    ...built,
    url,
    config,
    env,
    async close() {
      await built.close();
      if (!opts.database) await database.drop();
    },
  };
}
