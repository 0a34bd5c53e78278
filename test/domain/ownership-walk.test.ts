// The ultimate-owner walk over random ownership graphs (cross-holdings, cycles, self-holdings,
// bands): it always ends, loads each company once, no effective share exceeds 100 %, and with
// point shares every path's share adds up to exactly the whole company.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidatesOf, untracedShare } from '../../src/domain/ownership-summary.ts';
import { walkOwnership, type NodeOwners, type OwnerEdge } from '../../src/domain/ownership-walk.ts';

const EPS = 1e-9;

/** A random graph of `size` companies: each has up to 4 owners whose raw weights are scaled to at most 1. */
const graph = fc.integer({ min: 1, max: 9 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    banded: fc.boolean(),
    owners: fc.array(
      fc.array(
        fc.record({
          kind: fc.constantFrom<OwnerEdge['kind']>('company', 'company', 'company', 'person', 'foreign'),
          target: fc.integer({ min: 0, max: size - 1 }),
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

function loaderOf(g: Graph) {
  const nodes = new Map<string, NodeOwners>();
  g.owners.forEach((list, i) => {
    const total = list.reduce((s, o) => s + o.weight, 0);
    const edges = list.map((o): OwnerEdge => {
      const low = (o.weight / total) * (g.fill[i] / 100);
      const high = g.banded ? Math.min(1, low + o.slack / 1000) : low;
      return {
        kind: o.kind,
        orgNumber: o.kind === 'company' ? `c${o.target}` : null,
        name: `${o.kind} ${o.target}`,
        country: 'NO',
        birthYear: null,
        orgFormCode: null,
        shareClass: null,
        share: { low, high },
      };
    });
    if (edges.length) nodes.set(`c${i}`, { name: `c${i}`, year: 2024, edges });
  });
  const calls: string[][] = [];
  const load = async (orgs: string[]) => {
    calls.push(orgs);
    return new Map(orgs.filter((o) => nodes.has(o)).map((o) => [o, nodes.get(o)!]));
  };
  return { load, calls };
}

type Graph = typeof graph extends fc.Arbitrary<infer T> ? T : never;

describe('walkOwnership on random graphs', () => {
  it('ends, loads each company once and never gives more than 100 %', async () => {
    await fc.assert(
      fc.asyncProperty(graph, fc.integer({ min: 1, max: 12 }), async (g, maxDepth) => {
        const { load, calls } = loaderOf(g);
        const walk = await walkOwnership('c0', load, { maxDepth, maxPaths: 2000 });
        const loaded = calls.flat();
        expect(new Set(loaded).size).toBe(loaded.length);
        expect(loaded.length).toBeLessThanOrEqual(g.size);
        for (const t of walk.terminals) expect(t.hops.length).toBeLessThanOrEqual(maxDepth);
        const candidates = candidatesOf(walk.terminals);
        for (const c of candidates) {
          expect(c.share.low).toBeLessThanOrEqual(c.share.high + EPS);
          expect(c.share.high).toBeLessThanOrEqual(1 + EPS);
        }
        const lowSum = walk.terminals.reduce((s, t) => s + t.share.low, 0);
        expect(lowSum).toBeLessThanOrEqual(1 + EPS);
        if (walk.found && !g.banded) expect(Math.abs(lowSum - 1)).toBeLessThan(1e-6);
        expect(untracedShare(candidates).high).toBeLessThanOrEqual(1 + EPS);
      }),
      { numRuns: 300 },
    );
  });

  it('stops a long path at the cap of paths, and says so', async () => {
    // Every company is held 50/50 by the next two: 2^depth paths without the cap.
    const load = async (orgs: string[]) =>
      new Map(
        orgs.map((o) => {
          const i = Number(o.slice(1));
          const edge = (t: number): OwnerEdge => ({
            kind: 'company',
            orgNumber: `c${t}`,
            name: `c${t}`,
            country: 'NO',
            birthYear: null,
            orgFormCode: null,
            shareClass: null,
            share: { low: 0.5, high: 0.5 },
          });
          return [o, { name: o, year: 2024, edges: [edge(2 * i + 1), edge(2 * i + 2)] }];
        }),
      );
    const walk = await walkOwnership('c0', load, { maxDepth: 20, maxPaths: 100 });
    expect(walk.truncated).toBe(true);
    expect(Math.abs(walk.terminals.reduce((s, t) => s + t.share.low, 0) - 1)).toBeLessThan(1e-9);
  });
});
