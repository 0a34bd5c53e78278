// GET /api/companies/{orgNumber}/owners and /ownership-changes on hand-written register years
// (the real Aksjonærregisteret CSV layout, FORMATS.md §3, loaded through the real shareholders
// job): chains of depth 1 to 12, a diamond, a cycle, several share classes, treasury shares, a
// missing year, foreign owners. Every expected share below is computed by hand in its comment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import '../../src/jobs/shareholders.ts';
import {
  byCompany,
  byForeign,
  byPerson,
  org,
  writeRegister,
  removeRegisters,
  type Line,
} from '../fixtures/aksjonaer/build.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;

const n = (i: number) => org(400 + i);
const [A, B, C, G, L] = [n(0), n(1), n(2), n(3), n(4)];
const D = Array.from({ length: 12 }, (_, i) => n(10 + i)); // D[0] ← D[1] ← … ← D[11] ← a person
const [M, N1, N2, T] = [n(30), n(31), n(32), n(33)];
const [Y1, Y2, Z] = [n(40), n(41), n(42)];
const [S, H1, H2] = [n(50), n(51), n(52)];
const [R, W, V] = [n(60), n(61), n(62)];
const [K0, K1, K2] = [n(70), n(71), n(72)];

/** Valid CVR numbers (mod 11, weights 2 7 6 5 4 3 2 1). */
function cvr(seed: number): string {
  for (let base = 4_100_000 + seed * 13; ; base++) {
    const digits = String(base).padStart(7, '0').split('').map(Number);
    const sum = digits.reduce((s, d, i) => s + d * [2, 7, 6, 5, 4, 3, 2][i], 0);
    const check = (11 - (sum % 11)) % 11;
    if (check <= 9) return `${base}${check}`;
  }
}
const [DKA, DKB, DKC] = [cvr(1), cvr(2), cvr(3)];

const foreign = (investee: string, holder: string, country: string, count: number, total: number): Line => ({
  org: investee,
  company: `C ${investee}`,
  holder,
  id: ' ',
  postal: `KY1-1104, GEORGE TOWN`,
  country,
  count,
  total,
});
const co = (investee: string, holder: string, count: number, total: number | null, cls?: string) =>
  byCompany(investee, `C ${investee}`, holder, `C ${holder}`, count, total, cls);
const person = (investee: string, name: string, count: number, total: number) =>
  byPerson(investee, `C ${investee}`, name, 1970, count, total);

const Y2023: Line[] = [
  co(A, B, 400, 1000),
  person(A, 'XAVER PERSEN', 450, 1000),
  byForeign(A, `C ${A}`, 'OLD CAPITAL AB', 100, 1000),
  co(A, L, 50, 1000),
  co(W, V, 70, 100), // W has rows in 2023 only: the 2024 walk reads it from 2023
  foreign(W, 'ANDES INVERSIONES SA', 'CL', 30, 100),
];
const Y2024: Line[] = [
  // A ← B 60 % ← C 80 % ← PER 90 % / QUIRIN 10 %; B ← foreign 20 %; A ← XAVER 31 %, G 2 %, L 7 %
  co(A, B, 600, 1000),
  person(A, 'XAVER PERSEN', 310, 1000),
  co(A, G, 20, 1000),
  co(A, L, 70, 1000),
  co(B, C, 80, 100),
  byForeign(B, `C ${B}`, 'NORDISK KAPITAL AB', 20, 100),
  person(C, 'PER PERSEN', 90, 100),
  person(C, 'QUIRIN PERSEN', 10, 100),
  // D[i] ← D[i+1] 90 % and a person 10 %; D[11] ← a person 100 %
  ...D.slice(0, 11).flatMap((d, i) => [co(d, D[i + 1], 900, 1000), person(d, `MINOR ${i}`, 100, 1000)]),
  person(D[11], 'TOPP PERSEN', 5, 5),
  // Diamond: M ← N1 50 %, N2 50 %; N1 ← T 60 %, person 40 %; N2 ← T 30 %, foreign 70 %; T no rows
  co(M, N1, 50, 100),
  co(M, N2, 50, 100),
  co(N1, T, 60, 100),
  person(N1, 'NILS PERSEN', 40, 100),
  co(N2, T, 30, 100),
  byForeign(N2, `C ${N2}`, 'SVENSK AB', 70, 100),
  // Cycle: Y1 ← Y2 60 %, person 40 %; Y2 ← Y1 50 %, Z 50 %
  co(Y1, Y2, 60, 100),
  person(Y1, 'YNGVE PERSEN', 40, 100),
  co(Y2, Y1, 50, 100),
  co(Y2, Z, 50, 100),
  // Share classes and treasury shares: A-aksjer 100 (H1 60, S itself 20, H2 20), B-aksjer 300
  // (H1 100, H2 200): the base is 400 − 20 = 380, H1 160/380, H2 220/380
  co(S, H1, 60, 100, 'A-aksjer'),
  co(S, S, 20, 100, 'A-aksjer'),
  co(S, H2, 20, 100, 'A-aksjer'),
  co(S, H1, 100, 300, 'B-aksjer'),
  co(S, H2, 200, 300, 'B-aksjer'),
  co(R, W, 10, 10),
  // Three layers to a trust outside the EEA and a nominee account
  co(K0, K1, 100, 100),
  co(K1, K2, 100, 100),
  foreign(K2, 'CAYMAN ALPHA TRUST', 'KY', 50, 100),
  foreign(K2, 'NORDIC NOMINEES LTD', 'GB', 50, 100),
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
  // CVR's owner register as the cvr job stores it (bands of EJERANDEL_PROCENT, Selskabsloven § 55).
  const owner = (ownerType: string, ownerName: string, ownerCvr: string | null, pctLow: number, pctHigh: number) => ({
    ownerType,
    ownerName,
    ownerCvr,
    pctLow,
    pctHigh,
    votingPctLow: pctLow,
  });
  await server.ctx.repos.cvrOwners.replace([
    {
      cvr: DKA,
      owners: [owner('company', 'Mellem ApS', DKB, 66.67, 90), owner('person', 'Jens Jensen', null, 10, 15)],
    },
    {
      cvr: DKB,
      owners: [owner('company', 'Top Holding ApS', DKC, 50, 66.67), owner('other', 'Fond Ltd', null, 33.33, 50)],
    },
    { cvr: DKC, owners: [owner('person', 'Karen Hansen', null, 100, 100)] },
  ]);
});
afterAll(async () => {
  await server?.close();
  removeRegisters();
});

async function get(path: string) {
  const r = await http(server.url, 'GET', path, { key });
  return r;
}
type Cand = {
  kind: string;
  orgNumber: string | null;
  name: string | null;
  effectivePct: number;
  stopReason: string;
  controls: boolean | null;
  pathCount: number;
  paths: { orgNumber: string | null; pct: number; year: number; shareClass: string | null }[][];
};
const find = (body: { candidates: Cand[] }, name: string | null, reason?: string) =>
  body.candidates.find((c) => c.name === name && (!reason || c.stopReason === reason));
const close = (got: number | undefined, want: number) => expect(Math.abs((got ?? NaN) - want)).toBeLessThan(0.01);

describe('GET /api/companies/{orgNumber}/owners', () => {
  it('walks a chain with a foreign owner and hides persons by default', async () => {
    const r = await get(`/api/companies/${A}/owners?threshold=0`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ basis: 'shareholder-register', year: 2024, country: 'NO', yearFallbacks: [] });
    expect(r.body.candidates.map((c: Cand) => c.kind)).not.toContain('person');
    close(find(r.body, 'NORDISK KAPITAL AB')?.effectivePct, 12); // 0.6 × 0.2
    expect(find(r.body, 'NORDISK KAPITAL AB')).toMatchObject({ stopReason: 'foreign-owner', controls: false });
    close(find(r.body, `C ${L}`)?.effectivePct, 7);
    close(find(r.body, `C ${G}`)?.effectivePct, 2);
    close(r.body.untracedPct, 21); // 12 + 7 + 2
    close(r.body.hiddenPersonsPct, 79); // 43.2 + 4.8 + 31
    expect(JSON.stringify(r.body)).not.toMatch(/PERSEN/);
  });

  it('shows persons with includePersons=true: name and birth year, never an id', async () => {
    const r = await get(`/api/companies/${A}/owners?includePersons=true&threshold=0`);
    const per = find(r.body, 'PER PERSEN')!;
    close(per.effectivePct, 43.2); // 0.6 × 0.8 × 0.9
    expect(per).toMatchObject({
      kind: 'person',
      orgNumber: null,
      birthYear: 1970,
      stopReason: 'person',
      controls: true,
    });
    expect(per.paths).toEqual([
      [
        expect.objectContaining({ orgNumber: B, pct: 60, year: 2024, shareClass: 'Ordinære aksjer' }),
        expect.objectContaining({ orgNumber: C, pct: 80, year: 2024 }),
        {
          kind: 'person',
          orgNumber: null,
          name: 'PER PERSEN',
          country: 'NO',
          birthYear: 1970,
          pct: 90,
          year: 2024,
          shareClass: 'Ordinære aksjer',
        },
      ],
    ]);
    close(find(r.body, 'QUIRIN PERSEN')?.effectivePct, 4.8);
    close(find(r.body, 'XAVER PERSEN')?.effectivePct, 31);
    expect(r.body.hiddenPersonsPct).toBeUndefined();
    // The default threshold (25 %) leaves out QUIRIN (4.8 %) and counts what it left out.
    const d = await get(`/api/companies/${A}/owners?includePersons=true`);
    expect(d.body.candidates.map((c: Cand) => c.name)).toEqual(['PER PERSEN', 'XAVER PERSEN']);
    expect(d.body.candidatesBelowThreshold).toBe(4);
  });

  it('walks chains of depth 1 to 12, and stops at maxDepth', async () => {
    for (let j = 0; j < 12; j++) {
      const r = await get(`/api/companies/${D[j]}/owners?includePersons=true&maxDepth=12&threshold=30`);
      const top = find(r.body, 'TOPP PERSEN')!;
      close(top.effectivePct, 100 * 0.9 ** (11 - j));
      expect(top.paths[0]).toHaveLength(12 - j);
      expect(r.body.flags.layers).toBe(12 - j);
    }
    const r = await get(`/api/companies/${D[0]}/owners`);
    expect(r.body.maxDepth).toBe(10);
    const cut = find(r.body, `C ${D[10]}`)!;
    expect(cut).toMatchObject({ stopReason: 'depth', orgNumber: D[10], controls: true });
    close(cut.effectivePct, 100 * 0.9 ** 10); // 34.87
  });

  it('sums the two paths of a diamond', async () => {
    const r = await get(`/api/companies/${M}/owners`);
    const t = find(r.body, `C ${T}`)!;
    close(t.effectivePct, 45); // 0.5 × 0.6 + 0.5 × 0.3
    expect(t).toMatchObject({ stopReason: 'no-owners-known', pathCount: 2, controls: false });
    close(find(r.body, 'SVENSK AB')?.effectivePct, 35);
  });

  it('ends a cycle and reports it', async () => {
    const r = await get(`/api/companies/${Y1}/owners?threshold=0`);
    const back = find(r.body, `C ${Y1}`, 'cycle')!;
    close(back.effectivePct, 30); // 0.6 × 0.5 back to Y1
    close(find(r.body, `C ${Z}`)?.effectivePct, 30);
    close(r.body.hiddenPersonsPct, 40);
    expect(r.body.flags.cycle).toEqual({ value: true, evidence: [`C ${Y1} (${Y1})`] });
  });

  it('counts every share class by shares and leaves treasury shares out of the base', async () => {
    const r = await get(`/api/companies/${S}/owners`);
    expect(r.body.candidates.map((c: Cand) => c.orgNumber)).toEqual([H2, H1]);
    close(find(r.body, `C ${H2}`)?.effectivePct, (220 / 380) * 100); // 57.89
    close(find(r.body, `C ${H1}`)?.effectivePct, (160 / 380) * 100); // 42.11
    expect(find(r.body, `C ${H2}`)).toMatchObject({ controls: true });
    expect(find(r.body, `C ${H1}`)!.paths[0][0].shareClass).toBe('A-aksjer, B-aksjer');
    expect(r.body.candidates.some((c: Cand) => c.orgNumber === S)).toBe(false);
  });

  it('reads a company without rows in the year from its latest earlier year, and says so', async () => {
    const r = await get(`/api/companies/${R}/owners?threshold=0`);
    expect(r.body.yearFallbacks).toEqual([{ orgNumber: W, name: `C ${W}`, requestedYear: 2024, usedYear: 2023 }]);
    const v = find(r.body, `C ${V}`)!;
    close(v.effectivePct, 70);
    expect(v.paths[0].map((h) => h.year)).toEqual([2024, 2023]);
    close(find(r.body, 'ANDES INVERSIONES SA')?.effectivePct, 30);
    expect(r.body.flags.nonEeaJurisdiction).toEqual({ value: true, evidence: ['ANDES INVERSIONES SA (CL)'] });
    // One year per company: in 2023, A's 2023 owners only; B has no rows then.
    const old = await get(`/api/companies/${A}/owners?year=2023&threshold=0`);
    close(find(old.body, `C ${B}`)?.effectivePct, 40);
    expect(find(old.body, `C ${B}`)!.stopReason).toBe('no-owners-known');
    close(find(old.body, 'OLD CAPITAL AB')?.effectivePct, 10);
  });

  it('flags a complex structure: three layers, a trust and a nominee outside the EEA', async () => {
    const r = await get(`/api/companies/${K0}/owners`);
    expect(r.body.flags).toMatchObject({
      layers: 3,
      jurisdictions: 3,
      jurisdictionCodes: ['GB', 'KY', 'NO'],
      trustOrArrangement: { value: true, evidence: ['CAYMAN ALPHA TRUST (KY)'] },
      nominee: { value: true, evidence: ['NORDIC NOMINEES LTD (GB)'] },
      nonEeaJurisdiction: { value: true },
      complexStructure: { value: true },
    });
    const plain = await get(`/api/companies/${S}/owners`);
    expect(plain.body.flags).toMatchObject({
      layers: 1,
      trustOrArrangement: { value: false },
      complexStructure: { value: false },
    });
  });

  it('answers an unknown company with nothing traced, and bad input with 400', async () => {
    const r = await get(`/api/companies/${n(99)}/owners`);
    expect(r.body).toMatchObject({ candidates: [], untracedPct: 100, basis: 'shareholder-register' });
    for (const q of ['maxDepth=0', 'maxDepth=21', 'threshold=101', 'year=1999']) {
      const bad = await get(`/api/companies/${A}/owners?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.details.length, q).toBeGreaterThan(0);
    }
    expect((await get(`/api/companies/123456789/owners`)).status).toBe(400);
  });
});

describe('GET /api/companies/{orgNumber}/ownership-changes', () => {
  it('lists owners that entered, left, rose or fell by 5 pp or more, and the largest owner', async () => {
    const r = await get(`/api/companies/${A}/ownership-changes?fromYear=2023&toYear=2024`);
    expect(r.status).toBe(200);
    const owner = (o: string, before: number, after: number) =>
      expect.objectContaining({ orgNumber: o, pctBefore: before, pctAfter: after, changePp: after - before });
    expect(r.body).toMatchObject({ basis: 'shareholder-register', years: [2023, 2024] });
    expect(r.body.changes).toEqual([
      {
        fromYear: 2023,
        toYear: 2024,
        entered: [owner(G, 0, 2)],
        left: [expect.objectContaining({ name: 'OLD CAPITAL AB', kind: 'foreign', pctBefore: 10, pctAfter: 0 })],
        rose: [owner(B, 40, 60)],
        fell: [], // XAVER (45 → 31) is a person, hidden; L (5 → 7) moved 2 pp only
        largestOwner: {
          before: { kind: 'person', orgNumber: null, name: null, country: null, pct: 45 },
          after: expect.objectContaining({ orgNumber: B, pct: 60 }),
          changed: true,
        },
      },
    ]);
    const p = await get(`/api/companies/${A}/ownership-changes?includePersons=true`);
    expect(p.body.changes[0].fell).toEqual([
      {
        kind: 'person',
        orgNumber: null,
        name: 'XAVER PERSEN',
        country: 'NO',
        birthYear: 1970,
        pctBefore: 45,
        pctAfter: 31,
        changePp: -14,
      },
    ]);
    expect((await get(`/api/companies/${A}/ownership-changes?fromYear=2024`)).body).toMatchObject({
      years: [2024],
      changes: [],
    });
    expect((await get(`/api/companies/${A}/ownership-changes?fromYear=2024&toYear=2023`)).status).toBe(400);
    expect((await get(`/api/companies/12345678/ownership-changes?country=DK`)).status).toBe(400);
  });
});

describe('GET /api/companies/{orgNumber}/owners?country=DK', () => {
  it('carries CVR bands through the chain: the bands contain the true shares', async () => {
    const r = await get(`/api/companies/${DKA}/owners?country=DK&includePersons=true&threshold=0`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ country: 'DK', year: null, basis: 'shareholder-register', untracedPct: null });
    const karen = find(r.body, 'Karen Hansen')!;
    // True shares, say 80 % of A held by B and 60 % of B held by C: 48 %, inside 66.67 × 50 .. 90 × 66.67.
    expect(karen).toMatchObject({ effectivePct: null, orgNumber: null, stopReason: 'person', controls: null }); // 50–66.67 % may be no majority
    const band = (karen as unknown as { effectivePctRange: { low: number; high: number } }).effectivePctRange;
    close(band.low, 33.335);
    close(band.high, 60.003);
    expect(band.low).toBeLessThanOrEqual(48);
    expect(band.high).toBeGreaterThanOrEqual(48);
    expect(karen.paths[0].map((h) => h.orgNumber)).toEqual([DKB, DKC, null]);
    expect(find(r.body, 'Fond Ltd')).toMatchObject({ stopReason: 'foreign-owner', kind: 'foreign' });
    expect(JSON.stringify(r.body)).not.toMatch(/birthYear|enhedsNummer/);
    const hidden = await get(`/api/companies/${DKA}/owners?country=DK&threshold=0`);
    expect(JSON.stringify(hidden.body)).not.toMatch(/Karen|Jens/);
    expect((await get(`/api/companies/${DKA}/owners?country=DK&year=2024`)).status).toBe(400);
  });
});
