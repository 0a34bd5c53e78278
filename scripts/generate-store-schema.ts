// `npm run store:generate`: migrates a throwaway embedded database and writes the Kysely row
// types of the store from it (src/store/engine/schema.ts, src/store/engine/schema/*.ts), removing a generated
// file the schema no longer needs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '../src/store/engine/db.ts';
import { migrate } from '../src/store/engine/migrate.ts';
import { committedSchemaFiles, renderStoreSchema, ROOT, SCHEMA_DIR } from './store-schema.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'ncd-schema-'));
try {
  // No other process can see this directory, so it needs no DATA_DIR lock.
  const store = await openStore({ dataDir, statementTimeoutMs: 0, noLock: true });
  try {
    await migrate(store.pool);
    const files = await renderStoreSchema(store.db);
    mkdirSync(path.join(ROOT, SCHEMA_DIR), { recursive: true });
    for (const file of committedSchemaFiles()) if (!files.has(file)) rmSync(path.join(ROOT, file));
    for (const [file, text] of files) writeFileSync(path.join(ROOT, file), text);
    console.log(`wrote ${[...files.keys()].join(', ')}`);
  } finally {
    await store.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
