// The walk down from a holder (what it owns directly and through others) over random ownership
// graphs (cross-holdings, cycles back to the holder, self-holdings, bands): it always ends, loads
// each company once, keeps every path simple and within maxDepth, and no effective share
// exceeds 100 %, whatever the caps.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walkHoldings, type HoldingEdge } from '../../src/domain/ownership-holdings.ts';

const EPS = 1e-9;

/** Company i's holders: up to 4 of the graph's companies, raw weights scaled to at most the whole. */
const graph = fc.integer({ min: 1, max: 9 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    banded: fc.boolean(),
    holders: fc.array(
      fc.array(
        fc.record({
          holder: fc.integer({ min: 0, max: size - 1 }),
          weight: fc.integer({ min: 1, max: 100 }),
          slack: fc.integer({ min: 0, max: 30 }),
        }),
        { maxLength: 4 },
      ),
      { minLength: size, maxLength: size },
    ),
    fill: fc.array(fc.integer({ min: 50, max: 100 }), { minLength: size, maxLength: size }),
  }),
);
type Graph = typeof graph extends fc.Arbitrary<infer T> ? T : never;

/** What each company holds, from the holder lists (the loader answers "what do these hold"). */
function loaderOf(g: Graph) {
  const holds = new Map<string, HoldingEdge[]>();
  g.holders.forEach((list, i) => {
    const total = list.reduce((s, o) => s + o.weight, 0);
    for (const o of list) {
      const low = (o.weight / total) * (g.fill[i] / 100);
      const high = g.banded ? Math.min(1, low + o.slack / 1000) : low;
      const key = `c${o.holder}`;
      holds.set(key, [
        ...(holds.get(key) ?? []),
        {
          orgNumber: `c${i}`,
          name: `c${i}`,
          country: 'NO',
          orgFormCode: 'AS',
          employeeCount: null,
          share: { low, high },
          year: 2024,
          shareClass: null,
        },
      ]);
    }
  });
  const calls: string[][] = [];
  const load = async (orgs: string[]) => {
    calls.push(orgs);
    return new Map(orgs.filter((o) => holds.has(o)).map((o) => [o, holds.get(o)!]));
  };
  return { load, calls };
}

describe('walkHoldings on random graphs', () => {
  it('ends, loads each company once, keeps paths simple and never gives more than 100 %', async () => {
    await fc.assert(
      fc.asyncProperty(
        graph,
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 10 }),
        async (g, maxDepth, maxPaths, maxCompanies) => {
          const { load, calls } = loaderOf(g);
          const walk = await walkHoldings('c0', load, { maxDepth, maxPaths, maxCompanies });
          const loaded = calls.flat();
          expect(new Set(loaded).size).toBe(loaded.length);
          expect(loaded.length).toBeLessThanOrEqual(g.size);
          expect(walk.companies.length).toBeLessThanOrEqual(maxCompanies);
          expect(walk.companies.some((c) => c.orgNumber === 'c0')).toBe(false);
          const paths = walk.companies.reduce((s, c) => s + c.paths.length, 0);
          expect(paths).toBeLessThanOrEqual(maxPaths);
          for (const c of walk.companies) {
            expect(c.share.low).toBeLessThanOrEqual(c.share.high + EPS);
            expect(c.share.high).toBeLessThanOrEqual(1 + EPS);
            expect(c.depth).toBe(Math.min(...c.paths.map((p) => p.length)));
            for (const p of c.paths) {
              expect(p.length).toBeLessThanOrEqual(maxDepth);
              expect(p.at(-1)!.orgNumber).toBe(c.orgNumber);
              const seen = ['c0', ...p.map((h) => h.orgNumber)];
              expect(new Set(seen).size).toBe(seen.length);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sums a diamond and stops a cross-holding where it comes back', async () => {
    const edge = (org: string, pct: number): HoldingEdge => ({
      orgNumber: org,
      name: org,
      country: 'NO',
      orgFormCode: 'AS',
      employeeCount: null,
      share: { low: pct, high: pct },
      year: 2024,
      shareClass: null,
    });
    // P holds A 60 % and B 40 %; A and B hold C 50 % each; C holds P 10 % (back to the holder).
    const holds: Record<string, HoldingEdge[]> = {
      P: [edge('A', 0.6), edge('B', 0.4)],
      A: [edge('C', 0.5)],
      B: [edge('C', 0.5)],
      C: [edge('P', 0.1)],
    };
    const walk = await walkHoldings('P', async (o) => new Map(o.map((x) => [x, holds[x] ?? []])), {
      maxDepth: 10,
      maxPaths: 100,
      maxCompanies: 100,
    });
    const c = walk.companies.find((x) => x.orgNumber === 'C')!;
    expect(c.share.low).toBeCloseTo(0.5, 12); // 0.6 × 0.5 + 0.4 × 0.5
    expect(c.paths).toHaveLength(2);
    expect(walk.cycle).toBe(true);
    expect(walk.companies.map((x) => x.orgNumber)).toEqual(['A', 'C', 'B']);
  });
});
