// Ultimate owners derived from a shareholder register: a walk up the ownership graph from one
// company, over an injected loader that answers "the owners of these companies" one layer at a
// time (one query per layer, never one per company). Each company's owners are loaded once
// (memoised). Every path ends: at a person, a foreign or unregistered owner, a company with no
// known owners, a cycle (an owner already on the path) or the depth cap, and the number of paths
// is capped, so any graph, however cross-held, gives an answer. Shares are carried as bands
// (low..high fractions): a Norwegian share is a point (low = high), a Danish one CVR's band.

/** A fraction of a company's shares, as a band; a point when low = high. */
export interface Band {
  low: number;
  high: number;
}

/** One owner of one company, as the register states it. */
export interface OwnerEdge {
  kind: 'company' | 'person' | 'foreign';
  /** Set for company owners in the same register (the walk continues through them). */
  orgNumber: string | null;
  name: string | null;
  country: string | null;
  birthYear: number | null;
  /** The stored organisation form, for recognising the state and municipalities. */
  orgFormCode: string | null;
  share: Band;
  /** The share classes held (comma-joined), null where the register has none (DK). */
  shareClass: string | null;
}

/** The owners of one company in the register year used for it. */
export interface NodeOwners {
  name: string | null;
  /** The year the rows come from; null for a register without years (DK). */
  year: number | null;
  edges: OwnerEdge[];
}

/** Loads the owners of each company named; a company missing from the map has none known. */
export type OwnersLoader = (orgNumbers: string[]) => Promise<Map<string, NodeOwners>>;

export interface Hop {
  orgNumber: string | null;
  name: string | null;
  country: string | null;
  birthYear: number | null;
  kind: OwnerEdge['kind'];
  orgFormCode: string | null;
  share: Band;
  /** The register year of the company this owner holds shares in. */
  year: number | null;
  shareClass: string | null;
}

export type StopReason = 'person' | 'foreign-owner' | 'no-owners-known' | 'depth' | 'cycle' | 'unknown';

export interface Terminal {
  hops: Hop[];
  share: Band;
  stopReason: StopReason;
}

export interface WalkLimits {
  maxDepth: number;
  /** Paths kept in all; the walk stops expanding (reason depth) when reached. */
  maxPaths: number;
}

export interface WalkResult {
  /** False when the start company has no known owners. */
  found: boolean;
  root: NodeOwners | null;
  terminals: Terminal[];
  truncated: boolean;
  /** Companies whose owners were loaded (the size of the tree). */
  companiesVisited: number;
}

const EPS = 1e-12;
const mul = (a: Band, b: Band): Band => ({ low: a.low * b.low, high: Math.min(1, a.high * b.high) });

/** What the listed owners leave unexplained: shares with no row, or a band's slack. */
function gap(edges: OwnerEdge[]): Band | null {
  const low = edges.reduce((s, e) => s + e.share.low, 0);
  const high = edges.reduce((s, e) => s + e.share.high, 0);
  const g = { low: Math.max(0, 1 - high), high: Math.max(0, 1 - low) };
  return g.high > 1e-9 ? g : null;
}

interface Partial {
  chain: string[];
  hops: Hop[];
  share: Band;
}

/** Walks up from `start`; see the file comment for where paths stop. */
export async function walkOwnership(start: string, load: OwnersLoader, limits: WalkLimits): Promise<WalkResult> {
  const cache = new Map<string, NodeOwners | null>();
  async function ensure(orgNumbers: string[]): Promise<void> {
    const missing = [...new Set(orgNumbers)].filter((o) => !cache.has(o));
    if (!missing.length) return;
    const got = await load(missing);
    for (const o of missing) cache.set(o, got.get(o) ?? null);
  }

  await ensure([start]);
  const root = cache.get(start) ?? null;
  if (!root || !root.edges.length) return { found: false, root, terminals: [], truncated: false, companiesVisited: 1 };

  const terminals: Terminal[] = [];
  let frontier: Partial[] = [{ chain: [start], hops: [], share: { low: 1, high: 1 } }];
  let paths = 1;
  let truncated = false;
  while (frontier.length) {
    await ensure(frontier.map((p) => p.chain[p.chain.length - 1]));
    const next: Partial[] = [];
    for (const p of frontier) {
      const at = p.chain[p.chain.length - 1];
      const node = cache.get(at);
      if (!node || !node.edges.length) {
        terminals.push({ hops: p.hops, share: p.share, stopReason: 'no-owners-known' });
        continue;
      }
      const rest = gap(node.edges);
      if (rest) terminals.push({ hops: p.hops, share: mul(p.share, rest), stopReason: 'unknown' });
      for (const e of node.edges) {
        if (e.share.high <= EPS) continue;
        const hop: Hop = { ...e, year: node.year };
        const share = mul(p.share, e.share);
        const hops = [...p.hops, hop];
        if (e.kind === 'person') terminals.push({ hops, share, stopReason: 'person' });
        else if (e.kind === 'foreign' || e.orgNumber === null)
          terminals.push({ hops, share, stopReason: 'foreign-owner' });
        else if (p.chain.includes(e.orgNumber)) terminals.push({ hops, share, stopReason: 'cycle' });
        else if (hops.length >= limits.maxDepth) terminals.push({ hops, share, stopReason: 'depth' });
        else if (paths >= limits.maxPaths) {
          truncated = true;
          terminals.push({ hops, share, stopReason: 'depth' });
        } else {
          paths++;
          next.push({ chain: [...p.chain, e.orgNumber], hops, share });
        }
      }
    }
    frontier = next;
  }
  return { found: true, root, terminals, truncated, companiesVisited: cache.size };
}

/** Sums bands, each bound capped at 1. */
export function sumBands(bands: Band[]): Band {
  return {
    low: Math.min(
      1,
      bands.reduce((s, b) => s + b.low, 0),
    ),
    high: Math.min(
      1,
      bands.reduce((s, b) => s + b.high, 0),
    ),
  };
}

/**
 * Control along one path: a majority (more than half) at every step. True when certain, null
 * when a band straddles one half, false when some step is at most half.
 */
export function pathControl(hops: { share: Band }[]): boolean | null {
  if (hops.every((h) => h.share.low > 0.5 + EPS)) return true;
  if (hops.every((h) => h.share.high > 0.5 + EPS)) return null;
  return false;
}
