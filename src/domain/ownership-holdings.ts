// What one company holds, directly and through the companies it holds: the ultimate-owner walk
// turned downwards. From the holder, one layer at a time (one query per layer over an injected
// loader, each company's holdings loaded once), every company reached is listed with its
// effective share (the product of the shares along each path, summed over all paths) and the
// paths themselves. A path never returns to a company already on it (cross-holdings end there),
// and the walk is capped in depth, paths and companies, so any graph gives an answer.
import { pathControl, sumBands, type Band } from './ownership-walk.ts';

/** One company held by one holder, as the register states it. */
export interface HoldingEdge {
  /** The company held. */
  orgNumber: string;
  name: string | null;
  country: string | null;
  orgFormCode: string | null;
  employeeCount: number | null;
  /** The holder's share of this company (all classes, treasury shares out of the base). */
  share: Band;
  /** The register year of the company held; null for a register without years (DK). */
  year: number | null;
  shareClass: string | null;
}

/** Loads what each named company holds; a company missing from the map holds nothing known. */
export type HoldingsLoader = (holders: string[]) => Promise<Map<string, HoldingEdge[]>>;

export interface HoldingsLimits {
  maxDepth: number;
  /** Paths kept in all; past it the walk stops expanding and says so. */
  maxPaths: number;
  /** Companies reached; past it no new company is added and the walk says so. */
  maxCompanies: number;
}

export interface HeldCompany {
  orgNumber: string;
  name: string | null;
  country: string | null;
  orgFormCode: string | null;
  employeeCount: number | null;
  year: number | null;
  /** Summed over every path, capped at 1 per bound. */
  share: Band;
  /** A majority at every step of some path; null where a band cannot tell. */
  controls: boolean | null;
  /** The fewest layers on any path (1: held directly). */
  depth: number;
  paths: HoldingEdge[][];
}

export interface HoldingsWalk {
  companies: HeldCompany[];
  truncated: boolean;
  /** A path came back to a company already on it (a cross-holding). */
  cycle: boolean;
}

interface Partial {
  chain: Set<string>;
  hops: HoldingEdge[];
  share: Band;
}

const mul = (a: Band, b: Band): Band => ({ low: a.low * b.low, high: Math.min(1, a.high * b.high) });

/** Walks down from `holder`; see the file comment. Companies by share (upper bound) descending, then number. */
export async function walkHoldings(
  holder: string,
  load: HoldingsLoader,
  limits: HoldingsLimits,
): Promise<HoldingsWalk> {
  const cache = new Map<string, HoldingEdge[]>();
  const reached = new Map<string, { edge: HoldingEdge; paths: HoldingEdge[][]; shares: Band[]; depth: number }>();
  let frontier: Partial[] = [{ chain: new Set([holder]), hops: [], share: { low: 1, high: 1 } }];
  let paths = 0;
  let truncated = false;
  let cycle = false;
  while (frontier.length) {
    const missing = [...new Set(frontier.map((p) => p.hops.at(-1)?.orgNumber ?? holder))].filter((o) => !cache.has(o));
    if (missing.length) {
      const got = await load(missing);
      for (const o of missing) cache.set(o, got.get(o) ?? []);
    }
    const next: Partial[] = [];
    for (const p of frontier) {
      for (const e of cache.get(p.hops.at(-1)?.orgNumber ?? holder) ?? []) {
        if (e.share.high <= 1e-12) continue;
        if (p.chain.has(e.orgNumber)) {
          cycle = true;
          continue;
        }
        if (paths >= limits.maxPaths || (!reached.has(e.orgNumber) && reached.size >= limits.maxCompanies)) {
          truncated = true;
          continue;
        }
        paths++;
        const hops = [...p.hops, e];
        const share = mul(p.share, e.share);
        let r = reached.get(e.orgNumber);
        if (!r) reached.set(e.orgNumber, (r = { edge: e, paths: [], shares: [], depth: hops.length }));
        r.paths.push(hops);
        r.shares.push(share);
        if (hops.length < limits.maxDepth) next.push({ chain: new Set([...p.chain, e.orgNumber]), hops, share });
      }
    }
    frontier = next;
  }
  const companies = [...reached.values()].map(({ edge, paths: ps, shares, depth }): HeldCompany => {
    const controls = ps.map((hops) => pathControl(hops));
    return {
      orgNumber: edge.orgNumber,
      name: edge.name,
      country: edge.country,
      orgFormCode: edge.orgFormCode,
      employeeCount: edge.employeeCount,
      year: edge.year,
      share: sumBands(shares),
      controls: controls.includes(true) ? true : controls.includes(null) ? null : false,
      depth,
      paths: ps,
    };
  });
  companies.sort(
    (a, b) => b.share.high - a.share.high || b.share.low - a.share.low || a.orgNumber.localeCompare(b.orgNumber),
  );
  return { companies, truncated, cycle };
}
