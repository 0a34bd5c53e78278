// `ncd sync inspections` end to end on a real store: the real header and sample row, a generated
// file with upstream's quirks, idempotent re-runs, replacement of the set (changed and absent
// rows), the half-size guard, bad input, and the download from --url / INSPECTIONS_URL.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { generateInspectionsCsv } from '../../src/sources/mattilsynet/generate.ts';
import { startFakeFileServer, type FakeFileServer } from '../fakes/file-server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const FIXTURE = new URL('../fixtures/mattilsynet/smilefjes-tilsyn-header-and-illustrative-row.csv', import.meta.url)
  .pathname;
const COL = { tilsynid: 7, dato: 10, total: 11 };

let files: FakeFileServer;
let server: TestServer;
let dir: string;
let generated: string; // CSV text
const messages: string[] = [];

const run = (opts: Parameters<typeof runJob>[2] = {}) =>
  runJob(server.ctx, 'inspections', opts, (m) => messages.push(m));
const query = async <T = Record<string, unknown>>(q: string, params: unknown[] = []) =>
  (await server.ctx.store.pool.query(q, params)).rows as T[];
/** Every stored row with its row version: a rewrite changes xmin even when the values do not. */
const snapshot = () => query('SELECT id, upstream_id, xmin::text AS xmin, content_hash FROM inspections ORDER BY id');

async function file(name: string, body: string): Promise<string> {
  const p = path.join(dir, name);
  await writeFile(p, body);
  return p;
}

/** The generated CSV's data lines (generated names hold no `;` or quotes, so split is exact). */
const dataLines = (csv: string) =>
  csv
    .split('\n')
    .slice(1)
    .filter((l) => l !== '');
const header = (csv: string) => csv.split('\n')[0];

beforeAll(async () => {
  files = await startFakeFileServer();
  server = await startServer({ env: { INSPECTIONS_URL: `${files.url}/smilefjes-tilsyn.csv` } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'inspections-job-'));
  const venues = Array.from({ length: 120 }, (_, i) => ({
    orgNumber: i % 10 === 9 ? null : orgNumberFor(i),
    name: `Kafé Nummer ${i} AS`,
  }));
  generated = await text(generateInspectionsCsv({ venues, seed: 7, duplicateRate: 0.05 }));
});
afterAll(async () => {
  await server?.close();
  await files?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('ncd sync inspections', () => {
  it('stores the real header and sample row, with municipality and office derived from the postal code', async () => {
    const r = await run({ file: FIXTURE });
    expect(r.recordsProcessed).toBe(1);
    expect(r.details).toMatchObject({ inserted: 1, changed: 0, removed: 0 });
    const [row] = await query('SELECT * FROM inspections');
    expect(row).toMatchObject({
      upstream_id: 'Z2406251324396200239ZDBTB_TilsynAvtale',
      venue_id: 'Z1703151057439673252OPMTI',
      org_number: '999999999',
      name: 'ILLUSTRATIVE RESTAURANT AS',
      address: 'Karl Johans gate 37',
      postnr: '0162',
      poststed: 'OSLO',
      municipality_no: '0301',
      office: 'Region Stor-Oslo',
      total_rating: 1,
      inspection_type: 'ordinary',
    });
    expect(String(row.date).slice(0, 10)).toBe('2024-06-25');
    const themes = row.themes as { number: number; grade: number; applicable: boolean; assessed: boolean }[];
    expect(themes.map((t) => t.grade)).toEqual([0, 1, 0, 4]);
    expect(themes[3]).toMatchObject({ applicable: false, assessed: false });
  });

  it('replaces the set with a generated file (duplicate rows once), and a second identical run writes nothing', async () => {
    const lines = dataLines(generated);
    const distinct = new Set(lines.map((l) => l.split(';')[COL.tilsynid]));
    expect(distinct.size).toBeLessThan(lines.length); // the file has duplicate rows
    const p = await file('generated.csv', generated);

    const first = await run({ file: p });
    expect(first.recordsProcessed).toBe(distinct.size);
    expect(first.details).toMatchObject({
      inserted: distinct.size,
      changed: 0,
      removed: 1,
      duplicatesDropped: lines.length - distinct.size,
    });
    expect((await query('SELECT upstream_id FROM inspections')).map((r) => r.upstream_id).sort()).toEqual(
      [...distinct].sort(),
    );

    const before = await snapshot();
    const second = await run({ file: p });
    expect(second.details).toMatchObject({ inserted: 0, changed: 0, unchanged: distinct.size, removed: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('rewrites a changed inspection and removes the ones a full file no longer holds', async () => {
    const lines = [...new Set(dataLines(generated))];
    const ids = lines.map((l) => l.split(';')[COL.tilsynid]);
    const dropped = new Set(ids.slice(0, 5));
    const changedId = ids[10];
    const body = lines
      .filter((l) => !dropped.has(l.split(';')[COL.tilsynid]))
      .map((l) => {
        const f = l.split(';');
        if (f[COL.tilsynid] !== changedId) return l;
        f[COL.dato] = '01012021';
        f[COL.total] = '3';
        return f.join(';');
      });
    const before = new Map((await snapshot()).map((r) => [r.upstream_id, r]));
    const r = await run({ file: await file('changed.csv', `${header(generated)}\n${body.join('\n')}\n`) });
    expect(r.details).toMatchObject({ inserted: 0, changed: 1, removed: 5 });
    const after = await snapshot();
    expect(after.map((x) => x.upstream_id)).not.toEqual(expect.arrayContaining([...dropped]));
    for (const row of after) {
      if (row.upstream_id === changedId) expect(row.xmin).not.toBe(before.get(row.upstream_id)!.xmin);
      else expect(row).toEqual(before.get(row.upstream_id as string));
    }
    const [changed] = await query(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, total_rating FROM inspections WHERE upstream_id = $1`,
      [changedId],
    );
    expect(changed).toEqual({ date: '2021-01-01', total_rating: 3 });
  });

  it('keeps absent rows when the file holds under half of the stored set (a truncated download)', async () => {
    const stored = (await snapshot()).length;
    const lines = dataLines(generated).slice(-3); // rows still stored (the dropped ones come first)
    const r = await run({ file: await file('short.csv', `${header(generated)}\n${lines.join('\n')}\n`) });
    expect(r.details).toMatchObject({ removed: 0, absentKept: true });
    expect((await snapshot()).length).toBe(stored);
    expect(messages.at(-2)).toMatch(/absent ones are NOT removed/);
  });

  it('stops at a malformed row with its line number and removes nothing', async () => {
    const stored = (await snapshot()).length;
    const lines = dataLines(generated);
    const bad = lines[1].split(';');
    bad[COL.dato] = '31022024';
    const p = await file('bad.csv', `${header(generated)}\n${lines[0]}\n${bad.join(';')}\n`);
    await expect(run({ file: p })).rejects.toThrow(/line 3: dato must be a real date/);
    expect((await snapshot()).length).toBe(stored);
    const [last] = await query(
      `SELECT status, message FROM sync_runs WHERE source = 'inspections' ORDER BY id DESC LIMIT 1`,
    );
    expect(last).toMatchObject({ status: 'error', message: expect.stringMatching(/line 3/) });
  });

  it('downloads INSPECTIONS_URL by default and --url when given', async () => {
    files.files.set('/smilefjes-tilsyn.csv', await readFile(FIXTURE));
    const r = await run();
    expect(files.requests).toEqual(['/smilefjes-tilsyn.csv']);
    // one row against the whole generated set: the guard keeps the rest
    expect(r.details).toMatchObject({ inserted: 1, absentKept: true });

    files.files.set('/other/tilsyn.csv', generated);
    const viaUrl = await run({ url: `${files.url}/other/tilsyn.csv` });
    expect(files.requests.at(-1)).toBe('/other/tilsyn.csv');
    expect(viaUrl.details).toMatchObject({ removed: 1 }); // the fixture row again
    expect(
      await query(`SELECT 1 FROM inspections WHERE upstream_id = 'Z2406251324396200239ZDBTB_TilsynAvtale'`),
    ).toHaveLength(0);

    await expect(run({ url: `${files.url}/missing.csv` })).rejects.toThrow(/answered 404/);
  });
});
