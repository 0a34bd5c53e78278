// The full-dump loads `brreg --file` and `brreg-subunits --file`. Reading the next batch overlaps
// the database write of the previous one, and a first load skips the stored-hash read: the store,
// the counts and the progress must still be those of a load that writes one batch after another,
// and a file that breaks off mid-stream must fail cleanly.
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlapped } from '../../src/jobs/brreg.ts';
import { runJob } from '../../src/jobs/runner.ts';
import { writeDumpFiles, type DumpFiles } from '../../src/sources/brreg/dump-files.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import type { BrregEnhet, BrregUnderenhet } from '../../src/sources/brreg/types.ts';
import { readJsonArray } from '../../src/sources/json-array.ts';
import { openSyncInput } from '../../src/sources/sync-input.ts';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { startFakeBrreg } from '../fakes/brreg/server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let dir: string;
let files: DumpFiles;
let enheter: BrregEnhet[];
let underenheter: BrregUnderenhet[];
const servers: TestServer[] = [];

async function readAll<T>(file: string): Promise<T[]> {
  const out: T[] = [];
  for await (const x of readJsonArray<T>((await openSyncInput({ file })).stream, 'test')) out.push(x);
  return out;
}

/** A gzipped dump file; `tail` is appended as is (to break the file off mid-element). */
async function writeDump(name: string, items: unknown[], tail = ']'): Promise<string> {
  const file = path.join(dir, name);
  const gzip = createGzip();
  const done = once(gzip.pipe(createWriteStream(file)), 'finish');
  gzip.end('[' + items.map((x) => JSON.stringify(x)).join(',\n') + tail);
  await done;
  return file;
}

async function server(opts: Parameters<typeof startServer>[0] = {}): Promise<TestServer> {
  const s = await startServer(opts);
  servers.push(s);
  return s;
}

const run = async (s: TestServer, job: string, file: string) => {
  const messages: string[] = [];
  const r = await runJob(s.ctx, job, { file, follow: false }, (m) => messages.push(m));
  return { ...r, messages };
};

const query = async <T = Record<string, unknown>>(s: TestServer, text: string, params: unknown[] = []) =>
  (await s.ctx.store.pool.query(text, params)).rows as T[];

/** Every stored column of every company except ids and timestamps, in one value. */
const digest = async (s: TestServer) =>
  (
    await query<{ n: number; d: string }>(
      s,
      `SELECT count(*)::int AS n,
     md5(string_agg((to_jsonb(c) - 'id' - 'created_at' - 'updated_at')::text, '|' ORDER BY org_number)) AS d FROM companies c`,
    )
  )[0];

const indexNames = async (s: TestServer) =>
  (
    await query<{ indexname: string }>(
      s,
      `SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'companies' ORDER BY 1`,
    )
  ).map((r) => r.indexname);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncd-brreg-dump-'));
  // Over 10 000 units, so that the every-10 000 progress line shows up.
  files = await writeDumpFiles(dir, 10_600, 17);
  enheter = await readAll<BrregEnhet>(files.enheter);
  underenheter = await readAll<BrregUnderenhet>(files.underenheter);
  expect(enheter.length).toBeGreaterThan(10_000);
}, 120_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('brreg --file', () => {
  let loaded: TestServer;

  it('stores on a first load exactly what writing batch after batch stores, with the same counts and progress', async () => {
    loaded = await server();
    const indexesBefore = await indexNames(loaded);
    const r = await run(loaded, 'brreg', files.enheter);
    const n = enheter.length;
    expect(r.details?.enheter).toEqual({ processed: n, inserted: n, changed: 0, deleted: 0 });
    // A line after each batch that crosses a multiple of 10 000, in order, and the summary.
    const crossings = [];
    for (let done = 2000; done < n + 2000; done += 2000)
      if (Math.min(done, n) % 10_000 < 2000) crossings.push(Math.min(done, n));
    expect(crossings).toEqual([10_000, n]);
    expect(r.messages.filter((m) => / read, /.test(m))).toEqual([
      ...crossings.map((k) => `enheter: ${k} read, ${k} new, 0 changed`),
      `enheter: ${n} read, ${n} new, 0 changed, 0 marked deleted`,
    ]);
    expect(await indexNames(loaded)).toEqual(indexesBefore);
    expect(await query(loaded, 'SELECT count(*)::int AS n FROM sync_seen')).toEqual([{ n: 0 }]);

    // The reference: the repository's write, one batch at a time, with the stored-hash read.
    const reference = await server();
    let inserted = 0;
    for (let i = 0; i < n; i += 2000) {
      inserted += (
        await reference.ctx.repos.companyWrites.write(enheter.slice(i, i + 2000).map((e) => ({ core: mapEnhet(e) })))
      ).inserted;
    }
    await reference.ctx.repos.groups.recompute();
    expect(inserted).toBe(n);
    expect(await digest(loaded)).toEqual(await digest(reference));
  }, 180_000);

  it('changes nothing on an identical re-run', async () => {
    const before = await query(loaded, 'SELECT max(updated_at)::text AS t, count(*)::int AS n FROM companies');
    const r = await run(loaded, 'brreg', files.enheter);
    expect(r.details?.enheter).toEqual({ processed: enheter.length, inserted: 0, changed: 0, deleted: 0 });
    expect(r.messages.some((m) => m.includes('first load'))).toBe(false);
    expect(await query(loaded, 'SELECT max(updated_at)::text AS t, count(*)::int AS n FROM companies')).toEqual(before);
  }, 120_000);

  it('writes a changed unit, adds a new one, marks an absent one deleted and moves only their updatedAt', async () => {
    const [renamed, dropped, ...rest] = enheter;
    const added = { ...rest[0], organisasjonsnummer: '999999999', navn: 'HELT NY AS' };
    const file = await writeDump('changed.json.gz', [{ ...renamed, navn: 'NYTT NAVN AS' }, ...rest, added]);
    // As text: a Date would cut the microseconds off and make the last batch look newer.
    const t0 = (await query<{ t: string }>(loaded, 'SELECT max(updated_at)::text AS t FROM companies'))[0].t;
    const r = await run(loaded, 'brreg', file);
    expect(r.details?.enheter).toEqual({ processed: enheter.length, inserted: 1, changed: 1, deleted: 1 });
    const moved = await query<{ org_number: string; name: string; is_deleted: boolean }>(
      loaded,
      'SELECT org_number, name, is_deleted FROM companies WHERE updated_at > $1::timestamptz ORDER BY org_number',
      [t0],
    );
    expect(moved).toEqual(
      [
        { org_number: renamed.organisasjonsnummer, name: 'NYTT NAVN AS', is_deleted: false },
        { org_number: dropped.organisasjonsnummer, name: dropped.navn, is_deleted: true },
        { org_number: '999999999', name: 'HELT NY AS', is_deleted: false },
      ].sort((a, b) => a.org_number.localeCompare(b.org_number)),
    );
  }, 120_000);

  it('keeps absent units when the dump holds under half of the live ones', async () => {
    const file = await writeDump('short.json.gz', enheter.slice(0, 100));
    const r = await run(loaded, 'brreg', file);
    expect(r.details?.enheter).toMatchObject({ processed: 100, deleted: 0 });
    expect(r.messages.some((m) => m.includes('absent units are NOT marked deleted'))).toBe(true);
  }, 120_000);

  it('fails cleanly on a file that breaks off mid-stream: written batches stay, bookkeeping and indexes are restored', async () => {
    const s = await server();
    const indexesBefore = await indexNames(s);
    // 5 000 whole units, then one cut off: two full batches are written, the third is not.
    const file = await writeDump('broken.json.gz', enheter.slice(0, 5000), ',{"organisasjonsnummer": "12345678');
    await expect(run(s, 'brreg', file)).rejects.toThrow(/enheter dump: cannot read the JSON array/);
    expect(await query(s, 'SELECT count(*)::int AS n FROM companies')).toEqual([{ n: 4000 }]);
    expect(await query(s, 'SELECT count(*)::int AS n FROM sync_seen')).toEqual([{ n: 0 }]);
    expect(await indexNames(s)).toEqual(indexesBefore);
    expect(
      await query(
        s,
        `SELECT status, records_processed::int AS records_processed FROM sync_runs WHERE source = 'brreg' ORDER BY id DESC LIMIT 1`,
      ),
    ).toEqual([{ status: 'error', records_processed: 4000 }]);
    // The job is free again, and a whole file completes the store.
    const r = await run(s, 'brreg', files.enheter);
    expect(r.details?.enheter).toEqual({
      processed: enheter.length,
      inserted: enheter.length - 4000,
      changed: 0,
      deleted: 0,
    });
  }, 180_000);
});

describe('brreg-subunits --file', () => {
  it('loads all sub-units, closes absent ones, and fails cleanly on a broken file', async () => {
    const s = await server();
    await run(s, 'brreg', files.enheter);
    const indexesBefore = await indexNames(s);
    const first = await run(s, 'brreg-subunits', files.underenheter);
    // A first load bumps the parents with the search indexes dropped, then rebuilds them.
    expect(await indexNames(s)).toEqual(indexesBefore);
    expect(first.messages.filter((m) => m.includes('search indexes'))).toEqual([
      `underenheter: first load, ${indexesBefore.length - 2} search indexes dropped for the parents' update, ${indexesBefore.length - 2} rebuilt`,
    ]);
    // Each parent in the store is bumped once, by one statement at the end of the load.
    const units = enheter.map((e) => e.organisasjonsnummer);
    const parents = new Set(underenheter.map((u) => u.overordnetEnhet).filter((p) => p && units.includes(p)));
    expect(parents.size).toBeGreaterThan(100);
    expect(first.details).toEqual({ processed: underenheter.length, closed: 0, parentsBumped: parents.size });
    const updatedAt = async (orgNumber: string) =>
      (await query<{ t: Date }>(s, 'SELECT updated_at AS t FROM companies WHERE org_number = $1', [orgNumber]))[0].t;
    expect(await query(s, `SELECT count(*)::int AS n FROM sub_units WHERE NOT is_deleted`)).toEqual([
      { n: underenheter.length },
    ]);

    const [gone, ...rest] = underenheter;
    const [goneParent, otherParent] = [gone.overordnetEnhet!, [...parents].find((p) => p !== gone.overordnetEnhet)!];
    expect(parents.has(goneParent)).toBe(true);
    const [goneParentBefore, otherParentBefore] = [await updatedAt(goneParent), await updatedAt(otherParent)];
    const second = await run(s, 'brreg-subunits', await writeDump('sub-units.json.gz', rest));
    expect(second.messages.some((m) => m.includes('search indexes'))).toBe(false);
    // The parent of the closed unit shows again in the change feed; no other parent moves.
    expect(second.details).toEqual({ processed: rest.length, closed: 1, parentsBumped: 1 });
    expect((await updatedAt(goneParent)).getTime()).toBeGreaterThan(goneParentBefore.getTime());
    expect(await updatedAt(otherParent)).toEqual(otherParentBefore);
    const same = await run(s, 'brreg-subunits', await writeDump('sub-units.json.gz', rest));
    expect(same.details).toEqual({ processed: rest.length, closed: 0, parentsBumped: 0 });
    // A first load raises no subUnits event (it skips the look-up of stored units); a later load
    // names the changed unit under its parent.
    const subUnitEvents = () =>
      query(s, `SELECT org_number, after FROM company_events WHERE category = 'subUnits' ORDER BY seq`);
    expect(await subUnitEvents()).toEqual([]);
    const renamed = rest.find((u) => u.overordnetEnhet && parents.has(u.overordnetEnhet))!;
    const edited = rest.map((u) => (u === renamed ? { ...u, navn: `${u.navn} RENAMED` } : u));
    expect((await run(s, 'brreg-subunits', await writeDump('sub-units.json.gz', edited))).details).toEqual({
      processed: rest.length,
      closed: 0,
      parentsBumped: 1,
    });
    expect(await subUnitEvents()).toEqual([
      { org_number: renamed.overordnetEnhet, after: { subUnits: [renamed.organisasjonsnummer] } },
    ]);
    expect(
      await query(s, 'SELECT is_deleted FROM sub_units WHERE org_number = $1', [gone.organisasjonsnummer]),
    ).toEqual([{ is_deleted: true }]);

    const broken = await writeDump('sub-units-broken.json.gz', rest.slice(0, 2500), ',{"organisasjonsnummer": ');
    await expect(run(s, 'brreg-subunits', broken)).rejects.toThrow(/underenheter dump: cannot read the JSON array/);
    expect(await query(s, 'SELECT count(*)::int AS n FROM sync_seen')).toEqual([{ n: 0 }]);
    expect(await query(s, `SELECT count(*)::int AS n FROM sub_units WHERE is_deleted`)).toEqual([{ n: 1 }]);
  }, 180_000);
});

describe('overlapped', () => {
  async function* source<T>(items: T[], failAfter = Infinity) {
    let i = 0;
    for (const x of items) {
      if (i++ === failAfter) throw new Error('source broke');
      await new Promise((r) => setTimeout(r, 1));
      yield x;
    }
  }

  it('writes in order with at most one write in flight, reading the next batch meanwhile', async () => {
    const log: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    await overlapped(source([1, 2, 3, 4]), async (b) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      log.push(`start ${b}`);
      await new Promise((r) => setTimeout(r, 10));
      log.push(`end ${b}`);
      inFlight--;
    });
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3', 'start 4', 'end 4']);
    expect(maxInFlight).toBe(1);
  });

  it('on a failing source, rejects only after the write in flight has finished', async () => {
    const log: string[] = [];
    const done = overlapped(source([1, 2, 3], 2), async (b) => {
      await new Promise((r) => setTimeout(r, 30));
      log.push(`written ${b}`);
    });
    await expect(done).rejects.toThrow('source broke');
    expect(log).toEqual(['written 1', 'written 2']);
  });

  it('stops reading at a failing write and rejects with its error', async () => {
    let read = 0;
    async function* counted() {
      for (const x of [1, 2, 3, 4, 5]) {
        read++;
        yield x;
      }
    }
    await expect(
      overlapped(counted(), async (b) => {
        if (b === 2) throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    // Batch 3 was read while batch 2 was being written; no further.
    expect(read).toBe(3);
  });
});

describe('brreg, downloading both dumps', () => {
  it('loads sub-units first and builds the search indexes once on a first load, storing what the two file loads store', async () => {
    const brreg = await startFakeBrreg();
    brreg.dumpFiles = { enheter: files.enheter, underenheter: files.underenheter };
    try {
      const s = await server({ overrides: { upstreams: { brreg: createBrregClient({ baseUrl: brreg.url }) } } });
      const indexesBefore = await indexNames(s);
      const deferred = indexesBefore.length - 2;
      const messages: string[] = [];
      const r = await runJob(s.ctx, 'brreg', { follow: false }, (m) => messages.push(m));
      expect(messages.filter((m) => m.includes('indexes'))).toEqual([
        `first load: ${deferred} search indexes are built after it`,
        `first load: ${deferred} indexes built`,
      ]);
      expect(await indexNames(s)).toEqual(indexesBefore);
      expect(r.recordsProcessed).toBe(enheter.length + underenheter.length);

      // Sub-units first: every parent is written after its units, so none needs a bump, and the
      // change feed still orders each parent after its units.
      expect(r.details?.underenheter).toEqual({ processed: underenheter.length, closed: 0, parentsBumped: 0 });
      const [order] = await query<{ units: number; older: number }>(
        s,
        `SELECT count(*)::int AS units, count(*) FILTER (WHERE c.updated_at < u.updated_at)::int AS older
         FROM companies c JOIN sub_units u ON u.parent_org_number = c.org_number`,
      );
      expect(order.units).toBeGreaterThan(100);
      expect(order.older).toBe(0);

      const reference = await server();
      await run(reference, 'brreg', files.enheter);
      await run(reference, 'brreg-subunits', files.underenheter);
      expect(await digest(s)).toEqual(await digest(reference));
      const subUnits = `SELECT count(*)::int AS n, md5(string_agg(org_number || parent_org_number, ',' ORDER BY org_number)) AS d FROM sub_units`;
      expect(await query(s, subUnits)).toEqual(await query(reference, subUnits));
    } finally {
      await brreg.close();
    }
  }, 240_000);
});
