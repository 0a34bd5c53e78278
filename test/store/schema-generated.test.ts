// The committed row types (src/store/schema.ts, src/store/schema/*.ts) must match what
// kysely-codegen renders from a freshly migrated database of this run's engine; when a migration
// changes a table, this fails until `npm run store:generate`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committedSchemaFiles, renderStoreSchema, ROOT, SCHEMA_FILE } from '../../scripts/store-schema.ts';
import { openStore, type Store } from '../../src/store/engine/db.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/server.ts';

let database: TestDatabase;
let store: Store;
beforeAll(async () => {
  database = await createTestDatabase();
  store = await openStore({
    databaseUrl: database.env.DATABASE_URL,
    dataDir: database.env.DATA_DIR,
    statementTimeoutMs: 30_000,
  });
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

/** The first line where the two texts differ, for a readable failure. */
function firstDifference(file: string, committed: string, fresh: string): string | undefined {
  if (committed === fresh) return undefined;
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i < 0 ? a.length : i;
  return `${file} is stale (first difference at line ${at + 1}: committed ${JSON.stringify(a[at])}, generated ${JSON.stringify(b[at])}); run npm run store:generate`;
}

describe('generated store schema', () => {
  it('matches the tables of the migrated database', async () => {
    const files = await renderStoreSchema(store.db);
    expect(files.get(SCHEMA_FILE)).toContain('companies: CompaniesTable;');
    expect(committedSchemaFiles()).toEqual([...files.keys()].sort());
    for (const [file, fresh] of files)
      expect(firstDifference(file, readFileSync(path.join(ROOT, file), 'utf8'), fresh)).toBeUndefined();
  });
});
