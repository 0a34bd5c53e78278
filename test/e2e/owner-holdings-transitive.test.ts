// GET /api/shareholders/by-owner?transitive=true on hand-written register years (the real
// Aksjonærregisteret CSV layout, loaded through the real shareholders job) and CVR's owner bands:
// every company held directly or through others, with the effective share, the paths, a diamond,
// a cross-holding back into the tree, share classes, treasury shares, a company read from an
// earlier year, the depth cap and paging. Every expected share is computed by hand beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import '../../src/jobs/shareholders.ts';
import { byCompany, byForeign, byPerson, org, removeRegisters, writeRegister } from '../fixtures/aksjonaer/build.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;

const n = (i: number) => org(700 + i);
const [P, A, B, C, D, E] = [n(0), n(1), n(2), n(3), n(4), n(5)];

/** Valid CVR numbers (mod 11, weights 2 7 6 5 4 3 2 1). */
function cvr(seed: number): string {
  for (let base = 4_700_000 + seed * 17; ; base++) {
    const digits = String(base).padStart(7, '0').split('').map(Number);
    const sum = digits.reduce((s, d, i) => s + d * [2, 7, 6, 5, 4, 3, 2][i], 0);
    const check = (11 - (sum % 11)) % 11;
    if (check <= 9) return `${base}${check}`;
  }
}
const [DKA, DKB, DKC] = [cvr(1), cvr(2), cvr(3)];

const co = (investee: string, holder: string, count: number, total: number, cls?: string) =>
  byCompany(investee, `C ${investee}`, holder, `C ${holder}`, count, total, cls);

// P holds A 60 % and B 30 %; A and B hold C 50 % each, over two share classes; C holds E 80 %;
// E holds A 10 % (back into the tree); A holds D, read from 2023: 60 of 100 shares, of which D
// holds 20 itself, so 60 / 80 = 75 %.
const Y2023 = [co(D, A, 60, 100), co(D, D, 20, 100), byPerson(D, `C ${D}`, 'DINA PERSEN', 1960, 20, 100)];
const Y2024 = [
  co(A, P, 600, 1000),
  co(A, E, 100, 1000),
  byPerson(A, `C ${A}`, 'ANNE PERSEN', 1970, 300, 1000),
  co(B, P, 300, 1000),
  byPerson(B, `C ${B}`, 'BJØRN PERSEN', 1971, 700, 1000),
  co(C, A, 30, 60, 'A-aksjer'),
  co(C, B, 30, 60, 'A-aksjer'),
  co(C, A, 20, 40, 'B-aksjer'),
  co(C, B, 20, 40, 'B-aksjer'),
  co(E, C, 80, 100),
  byForeign(E, `C ${E}`, 'UTLANDET AB', 20, 100),
];

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'internal' })).raw;
  for (const [year, lines] of [
    [2023, Y2023],
    [2024, Y2024],
  ] as const) {
    const file = writeRegister(`aksjeeierbok_${year}.csv`, lines);
    expect(await runJob(server.ctx, 'shareholders', { file }, () => undefined)).toMatchObject({ status: 'ok' });
  }
  // CVR's owner register as the cvr job stores it: C holds B in the band 50–66.67 %, B holds A 66.67–90 %.
  const owner = (ownerName: string, ownerCvr: string, pctLow: number, pctHigh: number) => ({
    ownerType: 'company',
    ownerName,
    ownerCvr,
    pctLow,
    pctHigh,
    votingPctLow: pctLow,
  });
  await server.ctx.repos.cvrOwners.replace([
    { cvr: DKA, owners: [owner('Mellem ApS', DKB, 66.67, 90)] },
    { cvr: DKB, owners: [owner('Top Holding ApS', DKC, 50, 66.67)] },
  ]);
});
afterAll(async () => {
  await server?.close();
  removeRegisters();
});

const get = (path: string) => http(server.url, 'GET', path, { key });
type Row = {
  orgNumber: string;
  effectivePct: number | null;
  ownershipPct: number;
  controls: boolean | null;
  depth: number;
  pathCount: number;
  year?: number;
  paths: { orgNumber: string; pct: number | null; year: number | null; shareClass: string | null }[][];
};
const close = (got: number | null | undefined, want: number) =>
  expect(Math.abs((got ?? NaN) - want)).toBeLessThan(0.01);

describe('GET /api/shareholders/by-owner?transitive=true', () => {
  it('lists every company held directly or through others, with effective shares and paths', async () => {
    const r = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${P}&transitive=true&limit=100`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      shareholderOrgNumber: P,
      transitive: true,
      basis: 'shareholder-register',
      year: 2024,
      maxDepth: 10,
      totalCompanies: 5,
      truncated: false,
      cycle: true, // P→A→C→E→A comes back to A
      hasMore: false,
      nextCursor: null,
    });
    const rows = r.body.data as Row[];
    // A 0.6 + P→B→C→E→A 0.3·0.5·0.8·0.1 = 0.612; D (0.6 + 0.012)·0.75 = 0.459; C 0.6·0.5 + 0.3·0.5 = 0.45;
    // E 0.45·0.8 = 0.36; B 0.3.
    expect(rows.map((x) => x.orgNumber)).toEqual([A, D, C, E, B]);
    const want: Record<string, [number, boolean, number, number]> = {
      [A]: [61.2, true, 1, 2],
      [D]: [45.9, true, 2, 2], // P→A 60 % → D 75 %: a majority at each step
      [C]: [45, false, 2, 2], // 50 % is no majority
      [E]: [36, false, 3, 2],
      [B]: [30, false, 1, 1],
    };
    for (const x of rows) {
      const [pct, controls, depth, paths] = want[x.orgNumber];
      close(x.effectivePct, pct);
      close(x.ownershipPct, pct);
      expect(x, x.orgNumber).toMatchObject({ controls, depth, pathCount: paths });
    }
    const d = rows.find((x) => x.orgNumber === D)!;
    expect(d.year).toBe(2023); // D has no rows in 2024: its latest earlier year
    expect(d.paths[0]).toEqual([
      { orgNumber: A, name: `C ${A}`, pct: 60, year: 2024, shareClass: 'Ordinære aksjer' },
      { orgNumber: D, name: `C ${D}`, pct: 75, year: 2023, shareClass: 'Ordinære aksjer' },
    ]);
    expect(d.paths[1].map((h) => h.orgNumber)).toEqual([B, C, E, A, D]);
    const c = rows.find((x) => x.orgNumber === C)!;
    expect(c.paths.map((p) => p.map((h) => h.pct))).toEqual([
      [60, 50],
      [30, 50],
    ]);
    expect(c.paths[0][1].shareClass).toBe('A-aksjer, B-aksjer');
    expect(JSON.stringify(r.body)).not.toMatch(/PERSEN|1960|1970/);
  });

  it('stops at maxDepth', async () => {
    const one = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${P}&transitive=true&maxDepth=1`);
    expect(one.body.data.map((x: Row) => [x.orgNumber, x.effectivePct])).toEqual([
      [A, 60],
      [B, 30],
    ]);
    expect(one.body.cycle).toBe(false);
    const two = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${P}&transitive=true&maxDepth=2`);
    // Without the path through E: A 60, D 0.6·0.75 = 45, C 45, B 30 (C and D tie).
    const rows = two.body.data.map((x: Row) => [x.orgNumber, x.effectivePct]);
    expect([rows[0], rows[3]]).toEqual([
      [A, 60],
      [B, 30],
    ]);
    expect(rows.slice(1, 3).sort()).toEqual(
      [
        [C, 45],
        [D, 45],
      ].sort(),
    );
  });

  it('pages the list with a cursor bound to the query', async () => {
    const base = `/api/shareholders/by-owner?shareholderOrgNumber=${P}&transitive=true&limit=2`;
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await get(`${base}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.totalCompanies).toBe(5);
      seen.push(...r.body.data.map((x: Row) => x.orgNumber));
      expect(r.body.hasMore).toBe(r.body.nextCursor !== null);
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([A, D, C, E, B]);
    const first = await get(base);
    const other = await get(
      `/api/shareholders/by-owner?shareholderOrgNumber=${P}&transitive=true&limit=2&maxDepth=3&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('cursor_query_mismatch');
  });

  it('keeps the direct answer without transitive, and refuses the walk options there', async () => {
    const r = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${P}`);
    expect(r.status).toBe(200);
    expect(r.body.transitive).toBeUndefined();
    expect(r.body.data.map((x: { orgNumber: string; ownershipPct: number }) => [x.orgNumber, x.ownershipPct])).toEqual([
      [A, 60],
      [B, 30],
    ]);
    for (const q of ['maxDepth=2', 'limit=5', 'cursor=abc']) {
      const bad = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${P}&${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.details[0].path, q).toBe(`query.${q.split('=')[0]}`);
    }
    for (const q of ['maxDepth=0', 'maxDepth=21', 'limit=101']) {
      const bad = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${P}&transitive=true&${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.details.length, q).toBeGreaterThan(0);
    }
    const none = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${n(99)}&transitive=true`);
    expect(none.body).toMatchObject({ data: [], totalCompanies: 0, hasMore: false });
  });

  it('carries CVR bands down a Danish chain: the bands contain the true shares', async () => {
    const r = await get(`/api/shareholders/by-owner?shareholderOrgNumber=${DKC}&country=DK&transitive=true`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ year: null, totalCompanies: 2 });
    const [b, a] = r.body.data as (Row & { effectivePctRange: { low: number; high: number } })[];
    expect(b).toMatchObject({ orgNumber: DKB, effectivePct: null, depth: 1, controls: null });
    expect(b.effectivePctRange).toEqual({ low: 50, high: 66.67 });
    // True shares, say 60 % and 80 %: 48 %, inside 50 × 66.67 .. 66.67 × 90.
    expect(a).toMatchObject({ orgNumber: DKA, effectivePct: null, depth: 2 });
    close(a.effectivePctRange.low, 33.335);
    close(a.effectivePctRange.high, 60.003);
    expect(a.effectivePctRange.low).toBeLessThanOrEqual(48);
    expect(a.effectivePctRange.high).toBeGreaterThanOrEqual(48);
    expect(
      (await get(`/api/shareholders/by-owner?shareholderOrgNumber=${DKC}&country=DK&transitive=true&year=2024`)).status,
    ).toBe(400);
  });
});
