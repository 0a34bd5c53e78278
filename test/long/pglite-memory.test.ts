// The embedded engine's thread must not keep the responses it has passed on: PGlite's
// execProtocolRaw, used alone, kept every parsed response message (a leak of ~13 kB per
// lookup). 1 000 responses of 100 kB each would then hold ~100 MB on the thread's heap.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/engine/db.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'ncd-pglite-memory-'));
let store: Store | undefined;

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps the embedded thread heap flat over 1 000 responses of 100 kB', async () => {
  store = await openStore({ dataDir: dir, statementTimeoutMs: 30_000, noLock: true });
  const before = await store.engineMemory!();
  expect(before.wasmBytes).toBeGreaterThan(64 * 2 ** 20);
  for (let i = 0; i < 1000; i++) {
    const r = await store.pool.query(`SELECT repeat('x', 100000) || $1::text AS v`, [String(i)]);
    expect(r.rows[0].v).toHaveLength(100_000 + String(i).length);
  }
  const after = await store.engineMemory!();
  // Garbage not yet collected may remain; a kept copy of every response would be ~100 MB.
  expect(after.heapUsed - before.heapUsed).toBeLessThan(40 * 2 ** 20);
}, 120_000);
