// Runs on the engine of this run: embedded PGlite, or PostgreSQL when DATABASE_URL is set.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/engine/db.ts';
import { listMigrations, migrate, MigrationError } from '../../src/store/engine/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

let db: TestDatabase | undefined;
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  await db?.drop();
  store = undefined;
  db = undefined;
});

async function open(): Promise<Store> {
  db = await createTestDatabase();
  store = await openStore({ databaseUrl: db.env.DATABASE_URL, dataDir: db.env.DATA_DIR, statementTimeoutMs: 30_000 });
  return store;
}

describe('migrations', () => {
  it('are numbered, forward-only and already applied to a fresh database; re-running applies nothing', async () => {
    const s = await open();
    const all = listMigrations();
    expect(all.map((m) => m.version)).toEqual([...all.map((m) => m.version)].sort((a, b) => a - b));
    const applied = await s.pool.query('SELECT version FROM schema_migrations ORDER BY version');
    expect(applied.rows.map((r) => r.version)).toEqual(all.map((m) => m.version));
    expect(await migrate(s.pool)).toEqual([]);
    const ext = await s.pool.query(`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
    expect(ext.rowCount).toBe(1);
  });

  it('rolls a failing migration back completely and throws MigrationError', async () => {
    const s = await open();
    const dir = mkdtempSync(path.join(tmpdir(), 'ncd-mig-'));
    writeFileSync(path.join(dir, '9001_ok.sql'), 'CREATE TABLE mig_ok (id int);');
    writeFileSync(path.join(dir, '9002_broken.sql'), 'CREATE TABLE mig_half (id int); SELECT * FROM no_such_table;');
    const extra = listMigrations(dir);
    await expect(migrate(s.pool, [...listMigrations(), ...extra])).rejects.toBeInstanceOf(MigrationError);
    const tables = await s.pool.query(
      `SELECT table_name FROM information_schema.tables WHERE table_name IN ('mig_ok', 'mig_half') ORDER BY 1`,
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(['mig_ok']);
    const versions = await s.pool.query('SELECT version FROM schema_migrations WHERE version > 9000');
    expect(versions.rows.map((r) => r.version)).toEqual([9001]);
  });
});
