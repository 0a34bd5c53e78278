// GET /api/companies/{orgNumber}/group on parents derived from the registry and from a
// generated shareholder register (3-level group, a cross-holding cycle, a group over the cap).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import {
  byCompany,
  byForeign,
  byPerson,
  company,
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

const [T, M1, M2, L1, L2, L3, R, C1, C2, C3, S, X, Y, P, BIG] = Array.from({ length: 15 }, (_, i) => org(100 + i));
const NAMES: Record<string, string> = {
  [T]: 'TOPP HOLDING AS',
  [M1]: 'MIDT EN AS',
  [M2]: 'MIDT TO AS',
  [L1]: 'LAV EN AS',
  [L2]: 'LAV TO AS',
  [L3]: 'LAV TRE AS',
  [R]: 'REGISTRERT AS',
  [C1]: 'KRYSS EN AS',
  [C2]: 'KRYSS TO AS',
  [C3]: 'KRYSS TRE AS',
  [S]: 'ALENE AS',
  [X]: 'HALV AS',
  [Y]: 'HALVEID AS',
  [P]: 'PERSONEID AS',
  [BIG]: 'STOR HOLDING AS',
};
const SMALL = Array.from({ length: 520 }, (_, i) => org(1000 + i));
const own = (investee: string, holder: string, count: number, total: number | null, cls?: string) =>
  byCompany(investee, NAMES[investee] ?? 'SMÅ AS', holder, NAMES[holder], count, total, cls);

/** The register of one year; `m2Share` moves M2 in and out of T's group. */
function register(m2Share: number): Line[] {
  return [
    own(M1, T, 1000, 1000),
    // M2: T holds 40 of 100 A-shares and all 30 B-shares (no total: sum of positions) = 70/130
    own(M2, T, m2Share, 100, 'A-aksjer'),
    byPerson(M2, NAMES[M2], 'OLA NORDMANN', 1980, 100 - m2Share, 100, 'A-aksjer'),
    own(M2, T, 30, null, 'B-aksjer'),
    own(L1, M1, 80, 100),
    byForeign(L1, NAMES[L1], 'NORDISK KAPITAL AB', 20, 100),
    own(L2, M1, 70, 100),
    byPerson(L2, NAMES[L2], 'KARI NORDMANN', 1975, 30, 100),
    own(L3, M2, 51, 100),
    own(L3, M1, 49, 100),
    // A minority holding back up the tree (an ownership cycle that is no parent link)
    own(T, L1, 40, 100),
    byPerson(T, NAMES[T], 'PER HANSEN', 1960, 60, 100),
    // Registry parent T wins over the majority shareholder M2
    own(R, M2, 90, 100),
    // C1 and C2 hold the majority of each other; C2 owns C3
    own(C2, C1, 60, 100),
    own(C1, C2, 55, 100),
    own(C3, C2, 100, 100),
    // Exactly half is no majority; a person's majority is no parent link
    own(Y, X, 50, 100),
    byPerson(P, NAMES[P], 'ANNE LIE', 1990, 90, 100),
    own(P, X, 10, 100),
    ...SMALL.map((n) => own(n, BIG, 10, 10)),
  ];
}

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'internal' })).raw;
  await server.ctx.repos.companyWrites.write([
    ...Object.entries(NAMES).map(([n, name]) =>
      company(n, name, { registryParent: n === R ? T : undefined, employees: n === T ? 250 : 4 }),
    ),
    ...SMALL.map((n, i) => company(n, `SMÅ ${String(i).padStart(3, '0')} AS`)),
  ]);
  await runJob(
    server.ctx,
    'shareholders',
    { file: writeRegister('aksjeeierbok_2024.csv', register(40)) },
    () => undefined,
  );
});
afterAll(async () => {
  await server?.close();
  removeRegisters();
});

const group = (n: string) => http(server.url, 'GET', `/api/companies/${n}/group`, { key });
type Node = {
  orgNumber: string;
  name: string;
  orgFormCode: string | null;
  employeeCount: number | null;
  children: Node[];
};
const shape = (n: Node): unknown => ({ [n.name]: n.children.map(shape) });

describe('GET /api/companies/{orgNumber}/group', () => {
  it('returns the same 3-level tree from every member, with one _sources for the tree', async () => {
    const expected = {
      'TOPP HOLDING AS': [
        { 'MIDT EN AS': [{ 'LAV EN AS': [] }, { 'LAV TO AS': [] }] },
        { 'MIDT TO AS': [{ 'LAV TRE AS': [] }] },
        { 'REGISTRERT AS': [] },
      ],
    };
    for (const n of [T, M1, M2, L1, L2, L3, R]) {
      const r = await group(n);
      expect(r.status).toBe(200);
      expect(shape(r.body.root)).toEqual(expected);
      expect(r.body.totalMembers).toBe(7);
      expect(r.body.message).toBeUndefined();
      expect(r.body._sources).toEqual({
        attribution: ['Brønnøysundregistrene', 'Aksjonærregisteret'],
        fields: { companyCore: 'Brønnøysundregistrene', groupHierarchy: 'Aksjonærregisteret' },
      });
    }
    const r = await group(T);
    expect(r.body.root).toMatchObject({ orgNumber: T, name: 'TOPP HOLDING AS', orgFormCode: 'AS', employeeCount: 250 });
    expect(Object.keys(r.body.root).sort()).toEqual(['children', 'employeeCount', 'name', 'orgFormCode', 'orgNumber']);
  });

  it('never loops on a cross-holding cycle and gives every member the same tree', async () => {
    for (const n of [C1, C2, C3]) {
      const r = await group(n);
      expect(r.status).toBe(200);
      expect(shape(r.body.root)).toEqual({ 'KRYSS EN AS': [{ 'KRYSS TO AS': [{ 'KRYSS TRE AS': [] }] }] });
      expect(r.body.totalMembers).toBe(3);
    }
  });

  it('gives a standalone company a single-node tree with a message', async () => {
    for (const n of [S, Y, P]) {
      const r = await group(n);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        totalMembers: 1,
        root: { orgNumber: n, children: [] },
        message: expect.stringContaining('no parent and no subsidiaries'),
      });
      expect(r.body._sources.fields).toEqual({
        companyCore: 'Brønnøysundregistrene',
        groupHierarchy: 'Brønnøysundregistrene',
      });
    }
  });

  it('caps a group at 500 members', async () => {
    const r = await group(SMALL[7]);
    expect(r.status).toBe(200);
    expect(r.body.root.orgNumber).toBe(BIG);
    expect(r.body.totalMembers).toBe(500);
    expect(r.body.truncated).toBe(true);
    expect(r.body.root.children).toHaveLength(499);
  });

  it('answers 400 for a malformed number, 404 for a company not in the store, 401 without a key', async () => {
    for (const bad of ['12345678', '1234567890', '923609017', 'abcdefghi']) {
      const r = await group(bad);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.details[0].path).toBe('params.orgNumber');
    }
    const missing = await group('923609016');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      code: 'company_not_found',
      error: expect.stringContaining('GET /api/companies/923609016'),
    });
    expect((await http(server.url, 'GET', `/api/companies/${T}/group`)).status).toBe(401);
  });
});

describe('derived parents on the company record', () => {
  const record = async (n: string) => (await http(server.url, 'GET', `/api/companies/${n}`, { key })).body;

  it('uses the registry parent first, else the majority shareholder, and records the source', async () => {
    expect(await record(M2)).toMatchObject({
      parentOrgNumber: T,
      isInGroup: true,
      _sources: { fields: { groupHierarchy: 'Aksjonærregisteret' } },
    });
    expect(await record(R)).toMatchObject({
      parentOrgNumber: T,
      isInGroup: true,
      _sources: { fields: { groupHierarchy: 'Brønnøysundregistrene' } },
    });
    expect(await record(T)).toMatchObject({ parentOrgNumber: null, isInGroup: true });
    const standalone = await record(Y);
    expect(standalone).toMatchObject({
      parentOrgNumber: null,
      isInGroup: false,
      majorityOwner: null,
      largestShareholder: { name: 'HALV AS', orgNumber: X, ownershipPct: 50, year: 2024 },
    });
    expect(standalone._sources.fields.groupHierarchy).toBeUndefined();
    expect(await record(P)).toMatchObject({
      parentOrgNumber: null,
      majorityOwner: { name: 'ANNE LIE', orgNumber: null, ownershipPct: 90, year: 2024 },
    });
  });

  it('moves updatedAt only for companies whose parent or group flag changed', async () => {
    const stamps = async () =>
      new Map(
        (
          await sql<{ org_number: string; updated_at: Date }>`SELECT org_number, updated_at FROM companies`.execute(
            server.ctx.store.db,
          )
        ).rows.map((r) => [r.org_number, r.updated_at.getTime()]),
      );
    const before = await stamps();
    const same = await runJob(
      server.ctx,
      'shareholders',
      { file: writeRegister('aksjeeierbok_2024.csv', register(40)) },
      () => undefined,
    );
    expect(same.details).toMatchObject({ parentsChanged: 0, groupFlagsChanged: 0 });
    expect(await stamps()).toEqual(before);

    // A newer year in which T holds only 10 + 30 of M2's 130 shares: M2 and L3 leave T's group.
    const next = await runJob(
      server.ctx,
      'shareholders',
      { file: writeRegister('aksjeeierbok_2025.csv', register(10)) },
      () => undefined,
    );
    expect(next.details).toMatchObject({ parentsChanged: 1, groupFlagsChanged: 0 });
    const after = await stamps();
    const moved = [...after].filter(([n, t]) => t !== before.get(n)).map(([n]) => n);
    expect(moved).toEqual([M2]);
    expect(shape((await group(L3)).body.root)).toEqual({ 'MIDT TO AS': [{ 'LAV TRE AS': [] }] });
    expect(await record(M2)).toMatchObject({
      parentOrgNumber: null,
      isInGroup: true,
      majorityOwner: { name: 'OLA NORDMANN', orgNumber: null, year: 2025 },
    });
  });
});
