// `ncd sync licenses` end to end on a real store: the CSV, JSON and NDJSON samples (one set of
// licences in three formats), a generated file, idempotent re-runs, replacement of the set, the
// half-size guard, derived municipality fields, bad input, and the missing-source message.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_LICENSE_SOURCE } from '../../src/jobs/licenses.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { generateLicensesCsv } from '../../src/sources/tbr/generate.ts';
import { startFakeFileServer, type FakeFileServer } from '../fakes/file-server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const fixture = (ext: string) => new URL(`../fixtures/tbr/licenses-sample.${ext}`, import.meta.url).pathname;
const HEADER =
  'licenseNumber;registerType;licenseTypeCode;orgNumber;venueName;postnr;municipality;municipalityNo;validFrom;validTo';

let files: FakeFileServer;
let server: TestServer;
let dir: string;
let generated: string;
const messages: string[] = [];

const run = (opts: Parameters<typeof runJob>[2] = {}) => runJob(server.ctx, 'licenses', opts, (m) => messages.push(m));
const query = async (q: string, params: unknown[] = []) =>
  (await server.ctx.store.pool.query(q, params)).rows as Record<string, any>[];
const snapshot = () =>
  query(
    `SELECT id, register_type || ':' || license_number AS key, xmin::text AS xmin, content_hash FROM licenses ORDER BY id`,
  );

async function file(name: string, body: string | Buffer): Promise<string> {
  const p = path.join(dir, name);
  await writeFile(p, body);
  return p;
}

beforeAll(async () => {
  files = await startFakeFileServer();
  server = await startServer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'licenses-job-'));
  const companies = Array.from({ length: 150 }, (_, i) => ({ orgNumber: orgNumberFor(i), name: `Bar Nummer ${i} AS` }));
  generated = await text(generateLicensesCsv({ companies, seed: 5 }));
});
afterAll(async () => {
  await server?.close();
  await files?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('ncd sync licenses', () => {
  it('without --file, --url or LICENSES_URL fails with a clear message', async () => {
    await expect(run()).rejects.toThrow(NO_LICENSE_SOURCE);
    expect(NO_LICENSE_SOURCE).toMatch(/--file PATH or --url URL/);
  });

  it('stores the CSV sample; the same licences as JSON and NDJSON change nothing', async () => {
    const r = await run({ file: fixture('csv') });
    expect(r).toMatchObject({ recordsProcessed: 3, details: { inserted: 3, changed: 0, removed: 0 } });
    const rows = await query('SELECT * FROM licenses ORDER BY license_number');
    expect(rows[0]).toMatchObject({
      license_number: '204518',
      register_type: 'Alkoholsbevilling',
      license_type_code: '01SKJE',
      license_type_description: 'Skjenkebevilling',
      org_number: '923609016',
      venue_name: 'Bar "Ærlig"; Grünerløkka',
      product_groups: ['GRP1', 'GRP2', 'GRP3'],
      municipality: 'Oslo',
      municipality_no: '0301',
      issuing_authority: 'Oslo kommune',
    });
    expect(new Date(rows[0].valid_from).toISOString()).toBe('2024-10-01T00:00:00.000Z');
    expect(rows[2]).toMatchObject({ license_number: '77120', valid_to: null });
    expect(new Date(rows[2].valid_from).toISOString()).toBe('2023-01-15T07:00:00.000Z');

    const before = await snapshot();
    for (const ext of ['json', 'ndjson']) {
      const again = await run({ file: fixture(ext) });
      expect(again).toMatchObject({ recordsProcessed: 3, details: { inserted: 0, changed: 0, removed: 0 } });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('replaces the set with a generated file, and a second identical run writes nothing', async () => {
    const p = await file('generated.csv', generated);
    const count = generated.trim().split('\n').length - 1;
    const first = await run({ file: p });
    expect(first).toMatchObject({ recordsProcessed: count, details: { inserted: count, changed: 0, removed: 3 } });
    const before = await snapshot();
    expect(before).toHaveLength(count);
    const second = await run({ file: p });
    expect(second.details).toMatchObject({ inserted: 0, changed: 0, removed: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('rewrites a changed licence and removes the ones the file no longer holds', async () => {
    const [head, ...lines] = generated.trim().split('\n');
    const cols = head.replace(/^\uFEFF/, '').split(';');
    const at = (l: string, c: string) => l.split(';')[cols.indexOf(c)];
    const key = (l: string) => `${at(l, 'registerType')}:${at(l, 'licenseNumber')}`;
    const dropped = new Set(lines.slice(0, 4).map(key));
    const changed = lines[6];
    const body = lines.slice(4).map((l) => (l === changed ? l.replace(/;(\d{4}-09-30)$/, ';2099-12-31') : l));
    expect(body).not.toContain(changed); // the line did end in a validTo to change
    const before = new Map((await snapshot()).map((r) => [r.key, r]));
    const r = await run({ file: await file('changed.csv', [head, ...body, ''].join('\n')) });
    expect(r.details).toMatchObject({ inserted: 0, changed: 1, removed: 4 });
    const after = await snapshot();
    expect(after.map((x) => x.key)).not.toEqual(expect.arrayContaining([...dropped]));
    for (const row of after) {
      if (row.key === key(changed)) expect(row.xmin).not.toBe(before.get(row.key)!.xmin);
      else expect(row).toEqual(before.get(row.key));
    }
  });

  it('keeps absent licences when the file holds under half of the stored set', async () => {
    const stored = (await snapshot()).length;
    const r = await run({ file: fixture('csv') });
    expect(r.details).toMatchObject({ inserted: 3, removed: 0, absentKept: true });
    expect((await snapshot()).length).toBe(stored + 3);
    expect(messages.at(-2)).toMatch(/absent ones are NOT removed/);
  });

  it('fills the municipality number from the postal code and its name from the number; the later of two equal keys wins', async () => {
    const body = [
      HEADER,
      'X-1;Alkoholsbevilling;01SKJE;;Første;5003;;;2024-01-01;',
      'X-2;Tobakksbevilling;19TBEK;;Andre;;;1804;2024-01-01;',
      'X-1;Alkoholsbevilling;01SKJE;;Første igjen;5003;;;2024-01-01;',
      '',
    ].join('\n');
    await run({ file: await file('derived.csv', body) });
    const rows = await query(
      `SELECT license_number, venue_name, municipality, municipality_no FROM licenses WHERE license_number LIKE 'X-%' ORDER BY 1`,
    );
    expect(rows).toEqual([
      { license_number: 'X-1', venue_name: 'Første igjen', municipality: 'Bergen', municipality_no: '4601' },
      { license_number: 'X-2', venue_name: 'Andre', municipality: 'Bodø', municipality_no: '1804' },
    ]);
  });

  it('stops at an invalid record naming line and field, and removes nothing', async () => {
    const stored = (await snapshot()).length;
    const body = [
      HEADER,
      'Y-1;Alkoholsbevilling;01SKJE;;A;;;;2024-01-01;',
      'Y-2;Alkoholsbevilling;01SKJE;;B;;;301;2024-01-01;',
      '',
    ].join('\n');
    await expect(run({ file: await file('bad.csv', body) })).rejects.toThrow(/line 3, field municipalityNo/);
    expect((await snapshot()).length).toBe(stored);
  });

  it('downloads --url, and LICENSES_URL when no option is given', async () => {
    files.files.set('/licenses.json', await readFile(fixture('json')));
    files.files.set('/configured.ndjson', await readFile(fixture('ndjson')));
    const viaUrl = await run({ url: `${files.url}/licenses.json` });
    expect(viaUrl.recordsProcessed).toBe(3);
    expect(files.requests).toEqual(['/licenses.json']);

    server.ctx.config.licensesUrl = `${files.url}/configured.ndjson`;
    try {
      const configured = await run();
      expect(configured.recordsProcessed).toBe(3);
      expect(files.requests.at(-1)).toBe('/configured.ndjson');
    } finally {
      server.ctx.config.licensesUrl = undefined;
    }
  });
});
