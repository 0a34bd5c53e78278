// The reconciliation service's entity suggest (OpenRefine Suggest API) finds a company by what a
// user has typed so far: a prefix of its name whose last word is cut short ("NORDKAPP IND" ->
// "NORDKAPP INDUSTRI AS"), in any case, Æ/Ø/Å included. The prefix query walks the name-sorted
// btree: EXPLAIN on the embedded engine shows an index scan, not a scan of companies.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { namePrefixQuery } from '../../src/store/company-suggest.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const template = JSON.parse(
  readFileSync(new URL('../fixtures/brreg/enheter-details-response.json', import.meta.url), 'utf8'),
);
const NAMES = [
  'NORDKAPP INDUSTRI AS',
  'NORDKAPP INDUSTRIER HOLDING AS',
  'NORDKAPP HAVFISKE AS',
  'ØSTLANDET BÅTSERVICE AS',
  'ÆRØY ÅKERBRUK AS',
  // Noise, so the index has more than a handful of names to skip.
  ...Array.from({ length: 300 }, (_, i) => `FJORD ${String(i).padStart(3, '0')} AS`),
];
const orgOf = new Map(NAMES.map((n, i) => [n, orgNumberFor(5000 + i)]));

let server: TestServer;
let serviceUrl: string;

beforeAll(async () => {
  server = await startServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'ncd-suggest-'));
  try {
    const file = path.join(dir, 'enheter.json');
    const { _links: _l, ...unit } = template;
    writeFileSync(file, JSON.stringify(NAMES.map((navn) => ({ ...unit, organisasjonsnummer: orgOf.get(navn), navn }))));
    await runJob(server.ctx, 'brreg', { file, follow: false }, () => undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const key = (await createKey(server, { tier: 'internal' })).raw;
  serviceUrl = (await http(server.url, 'GET', '/api/keys/reconcile-url', { key })).body.serviceUrl;
}, 300_000);
afterAll(() => server?.close());

async function suggest(prefix: string): Promise<{ id: string; name: string; description: string }[]> {
  const res = await fetch(`${serviceUrl}/suggest/entity?prefix=${encodeURIComponent(prefix)}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { id: string; name: string; description: string }[] }).result;
}

describe('suggest/entity by prefix', () => {
  it('finds a company by a prefix whose last word is cut short, first', async () => {
    const result = await suggest('NORDKAPP IND');
    expect(result.slice(0, 2).map((r) => r.name)).toEqual(['NORDKAPP INDUSTRI AS', 'NORDKAPP INDUSTRIER HOLDING AS']);
    expect(result[0].id).toBe(`NO:${orgOf.get('NORDKAPP INDUSTRI AS')}`);
    expect(result.map((r) => r.name)).not.toContain('FJORD 000 AS');
  });

  it('ignores case, Nordic letters included, and runs of spaces', async () => {
    expect((await suggest('nordkapp  indu'))[0].name).toBe('NORDKAPP INDUSTRI AS');
    expect((await suggest('østlandet bå'))[0].name).toBe('ØSTLANDET BÅTSERVICE AS');
    expect((await suggest('ærøy åk'))[0].name).toBe('ÆRØY ÅKERBRUK AS');
    expect((await suggest('ÆRØY ÅK'))[0].name).toBe('ÆRØY ÅKERBRUK AS');
  });

  it('takes LIKE wildcards in the typed text literally', async () => {
    const starts = server.ctx.repos.companySuggest;
    expect(await starts.byNamePrefix('nordkapp%', 10)).toEqual([]);
    expect(await starts.byNamePrefix('f_ord 00', 10)).toEqual([]);
    expect((await starts.byNamePrefix('fjord 00', 20)).map((r) => r.name)).toHaveLength(10);
  });

  it('reads the name-sorted index, not the whole table (EXPLAIN on the embedded engine)', async () => {
    // The planner may still choose a scan for a table this small; with scans priced out, it
    // shows that the statement can be answered from the index at all (a range, not a filter).
    const plan = await server.ctx.store.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const r = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${namePrefixQuery('nordkapp ind', 10)}`.execute(trx);
      return r.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    // Either name-sorted index answers it by a range: the live one, or companies_sort_name, which
    // carries the country since migration 0039 and which the planner may take on a table this small.
    expect(plan).toMatch(/Index (Only )?Scan using companies_(name_live|sort_name)/);
    expect(plan).toMatch(/Index Cond: .*>= 'nordkapp ind'.*< 'nordkapp ine'/s);
    expect(plan).not.toMatch(/Seq Scan|Sort/);
  });
});
