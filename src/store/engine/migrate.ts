// Forward-only numbered SQL migrations (store/migrations/NNNN_name.sql), applied at start-up.
// Each file runs in its own transaction under an advisory lock, so several processes starting
// at once apply each migration exactly once. A failure throws and start-up stops.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { fromRoot } from '../../project-root.ts';

const MIGRATIONS_DIR = fromRoot('src', 'store', 'migrations');
const MIGRATION_LOCK = 7301; // arbitrary advisory-lock id reserved for migrations

export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`Migration ${migration} failed: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_-]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const sql = readFileSync(path.join(dir, file), 'utf8');
      return {
        version: Number(file.slice(0, 4)),
        name: file.replace(/\.sql$/, ''),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(pool: pg.Pool, migrations = listMigrations()): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now())`);
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const done = new Map(
        (
          await client.query<{ version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations')
        ).rows.map((r) => [r.version, r.checksum]),
      );
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        try {
          await client.query('BEGIN');
          // An index built on a Norway-size store can outlast the request-path statement timeout.
          await client.query('SET LOCAL statement_timeout = 0');
          // Simple-query protocol (no parameters): the file may hold several statements.
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
            m.version,
            m.name,
            m.checksum,
          ]);
          await client.query('COMMIT');
          applied.push(m.name);
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new MigrationError(m.name, err);
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
  return applied;
}
