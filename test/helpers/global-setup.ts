// Builds, once per run, a migrated database with the reference data loaded; each test file
// then starts from a copy (a copied PGlite directory, or CREATE DATABASE … TEMPLATE).
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildContext, closeContext } from '../../src/runtime/build-context.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createLogger } from '../../src/logger.ts';
import path from 'node:path';
import { databaseUrl, serverMode, TEST_SECRET, TMP } from './env.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
    templateDir: string;
    /** Prefix of every database this run creates (several runs may share one server). */
    runPrefix: string;
  }
}

export default async function setup(project: TestProject) {
  mkdirSync(TMP, { recursive: true });
  let templateDatabase = '';
  const runPrefix = `ncd_t_${randomBytes(3).toString('hex')}_`;
  // Unique per run: several runs (developers, CI) may share the checkout.
  const templateDir = path.join(TMP, `template-${process.pid}-${randomBytes(3).toString('hex')}`);
  const admin = serverMode ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : undefined;
  if (admin) {
    await admin.connect();
    templateDatabase = `${runPrefix}tpl`;
    await admin.query(`CREATE DATABASE ${templateDatabase}`);
  }
  const config = loadConfig({
    DATA_DIR: templateDir,
    SECRET_KEY: TEST_SECRET,
    DATABASE_URL: serverMode ? databaseUrl(templateDatabase) : undefined,
    DEMO_DATA: 'off',
    LOG_LEVEL: 'warn',
  });
  const ctx = await buildContext(config, { logger: createLogger('warn') });
  await closeContext(ctx);
  project.provide('templateDatabase', templateDatabase);
  project.provide('templateDir', templateDir);
  project.provide('runPrefix', runPrefix);

  return async () => {
    rmSync(templateDir, { recursive: true, force: true });
    if (!admin) return;
    // Per-file databases are dropped by their suites; drop any of THIS run a crashed suite left
    // behind (other runs on the same server keep theirs).
    const left = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `${runPrefix}%`,
    ]);
    for (const { datname } of left.rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  };
}
