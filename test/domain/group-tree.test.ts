import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildTree,
  collectMembers,
  effectiveTotal,
  findRoot,
  holdsMajority,
  linkSources,
  ownershipPct,
  type GroupLoader,
  type GroupMember,
  type GroupNode,
} from '../../src/domain/group-tree.ts';

/** An in-memory store of parent links, counting loader calls (one per query). */
function graph(links: Record<string, string | null>, source = 'shareholders') {
  const members = new Map<string, GroupMember>(
    Object.entries(links).map(([n, p]) => [
      n,
      {
        orgNumber: n,
        name: `Company ${n}`,
        orgFormCode: 'AS',
        employeeCount: 1,
        parentOrgNumber: p,
        parentSource: p ? source : null,
      },
    ]),
  );
  const calls = { member: 0, children: 0 };
  const loader: GroupLoader = {
    async member(n) {
      calls.member++;
      return members.get(n);
    },
    async children(parents, exclude, limit) {
      calls.children++;
      return [...members.values()]
        .filter(
          (m) => m.parentOrgNumber !== null && parents.includes(m.parentOrgNumber) && !exclude.includes(m.orgNumber),
        )
        .sort((a, b) => a.orgNumber.localeCompare(b.orgNumber))
        .slice(0, limit);
    },
  };
  return { members, loader, calls };
}

async function treeFrom(g: ReturnType<typeof graph>, start: string, maxMembers = 500) {
  const root = await findRoot(g.members.get(start)!, g.loader.member);
  const { members, truncated } = await collectMembers(root, g.loader.children, maxMembers);
  return { tree: buildTree(root.orgNumber, members), members, truncated };
}

const shape = (n: GroupNode): unknown => ({ [n.orgNumber]: n.children.map(shape) });
const flatten = (n: GroupNode): string[] => [n.orgNumber, ...n.children.flatMap(flatten)];

describe('group walk', () => {
  // T owns M1 and M2; M1 owns L1 and L2; M2 owns L3. C1 and C2 own each other (a cycle of
  // majority links, as bad data can produce) and C2 owns C3.
  const links = { T: null, M1: 'T', M2: 'T', L1: 'M1', L2: 'M1', L3: 'M2', C1: 'C2', C2: 'C1', C3: 'C2', S: null };

  it('returns the same 3-level tree from every member', async () => {
    const g = graph(links);
    for (const start of ['T', 'M1', 'M2', 'L1', 'L2', 'L3']) {
      const { tree, members } = await treeFrom(g, start);
      expect(shape(tree)).toEqual({ T: [{ M1: [{ L1: [] }, { L2: [] }] }, { M2: [{ L3: [] }] }] });
      expect(members).toHaveLength(6);
    }
  });

  it('never loops on a cycle and picks the same root from every member of it', async () => {
    const g = graph(links);
    for (const start of ['C1', 'C2', 'C3']) {
      const { tree } = await treeFrom(g, start);
      expect(shape(tree)).toEqual({ C1: [{ C2: [{ C3: [] }] }] });
    }
  });

  it('treats a company naming itself as parent as a root', async () => {
    const g = graph({ A: 'A', B: 'A' });
    expect(shape((await treeFrom(g, 'B')).tree)).toEqual({ A: [{ B: [] }] });
  });

  it('walks up at most five levels', async () => {
    const chain: Record<string, string | null> = { N0: null };
    for (let i = 1; i <= 8; i++) chain[`N${i}`] = `N${i - 1}`;
    const g = graph(chain);
    const root = await findRoot(g.members.get('N8')!, g.loader.member);
    expect(root.orgNumber).toBe('N3');
    expect(g.calls.member).toBe(5);
  });

  it('stops at a parent that is not stored', async () => {
    const g = graph({ A: 'GONE', B: 'A' });
    expect((await findRoot(g.members.get('B')!, g.loader.member)).orgNumber).toBe('A');
  });

  it('caps the tree at maxMembers, with one query per level', async () => {
    const wide: Record<string, string | null> = { R: null };
    for (let i = 0; i < 30; i++) wide[`A${String(i).padStart(2, '0')}`] = 'R';
    for (let i = 0; i < 30; i++) wide[`B${String(i).padStart(2, '0')}`] = 'A00';
    const g = graph(wide);
    const capped = await treeFrom(g, 'R', 40);
    expect(capped.members).toHaveLength(40);
    expect(capped.truncated).toBe(true);
    expect(new Set(flatten(capped.tree)).size).toBe(40);
    const full = await treeFrom(graph(wide), 'R', 61);
    expect(full.truncated).toBe(false);
    expect(full.members).toHaveLength(61);
  });

  it('sorts children by name, then number, and counts link sources', async () => {
    const members: GroupMember[] = [
      {
        orgNumber: '3',
        name: 'Root',
        orgFormCode: 'AS',
        employeeCount: null,
        parentOrgNumber: null,
        parentSource: null,
      },
      {
        orgNumber: '2',
        name: 'Bravo',
        orgFormCode: 'AS',
        employeeCount: 1,
        parentOrgNumber: '3',
        parentSource: 'registry',
      },
      {
        orgNumber: '1',
        name: 'Alfa',
        orgFormCode: 'AS',
        employeeCount: 2,
        parentOrgNumber: '3',
        parentSource: 'shareholders',
      },
      {
        orgNumber: '0',
        name: 'Alfa',
        orgFormCode: 'AS',
        employeeCount: 2,
        parentOrgNumber: '3',
        parentSource: 'shareholders',
      },
    ];
    expect(buildTree('3', members).children.map((c) => c.orgNumber)).toEqual(['0', '1', '2']);
    expect(linkSources('3', members)).toEqual({ registry: 1, shareholders: 2 });
  });

  it('on random parent links: terminates, lists each company once, and every node hangs under its parent', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `X${String(i).padStart(2, '0')}`);
    const arb = fc.tuple(
      fc.array(fc.option(fc.integer({ min: 0, max: 11 }), { nil: null }), { minLength: 12, maxLength: 12 }),
      fc.integer({ min: 0, max: 11 }),
      fc.integer({ min: 1, max: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ([parents, start, cap]) => {
        const g = graph(Object.fromEntries(ids.map((id, i) => [id, parents[i] === null ? null : ids[parents[i]!]])));
        const { tree, members } = await treeFrom(g, ids[start], cap);
        const listed = flatten(tree);
        expect(listed.length).toBe(members.length);
        expect(new Set(listed).size).toBe(listed.length);
        expect(listed.length).toBeLessThanOrEqual(cap);
        const check = (n: GroupNode) =>
          n.children.forEach((c) => (expect(g.members.get(c.orgNumber)!.parentOrgNumber).toBe(n.orgNumber), check(c)));
        check(tree);
        expect(g.calls.member).toBeLessThanOrEqual(5);
        expect(g.calls.children).toBeLessThanOrEqual(12 + 1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ownership maths', () => {
  it('computes shareCount / total × 100 and falls back to the sum of positions', () => {
    expect(ownershipPct(50_000, 100_000)).toBe(50);
    expect(ownershipPct(1, 3)).toBe(33.333333);
    expect(ownershipPct(10, 1_838_457_834)).toBe(0.000001);
    expect(ownershipPct(5, 0)).toBe(0);
    expect(effectiveTotal(1000, 400)).toBe(1000);
    expect(effectiveTotal(null, 400)).toBe(400);
    expect(effectiveTotal(0, 400)).toBe(400);
  });

  it('needs strictly more than half for a majority', () => {
    expect(holdsMajority(50, 100)).toBe(false);
    expect(holdsMajority(51, 100)).toBe(true);
    expect(holdsMajority(1, 1)).toBe(true);
    expect(holdsMajority(0, 0)).toBe(false);
    fc.assert(
      fc.property(
        fc.nat({ max: 1e9 }),
        fc.integer({ min: 1, max: 1e9 }),
        (s, t) => holdsMajority(s, t) === s / t > 0.5,
      ),
    );
  });
});
