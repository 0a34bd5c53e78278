// Ultimate-owner candidates of a Norwegian or Danish company, derived from the shareholder
// registers (Aksjonærregisteret, CVR's owner register) by walking their chains. This is not the
// register of beneficial owners: it says who holds the shares, layer by layer, and how far the
// registers let us trace them. Natural persons only on request, and then by name and birth year.
import {
  candidatesOf,
  isPoint,
  pct,
  structureFlags,
  untracedShare,
  type Candidate,
  type Flag,
} from '../../domain/ownership-summary.ts';
import { walkOwnership, type Band, type Hop } from '../../domain/ownership-walk.ts';
import type { OwnershipChainRepository } from '../../store/ownership-chains.ts';
import type { ShareholderRepository } from '../../store/shareholders.ts';
import { danishCvrNumber, type OwnershipCountry } from './shareholders-dk.ts';
import { emptyNote, norwegianOrgNumber } from './shareholders.ts';
import { invalid } from '../../errors.ts';

export const BASIS = 'shareholder-register' as const;
/** Paths kept in one walk (a diamond-rich tree multiplies them); past it the walk stops with reason depth. */
const MAX_PATHS = 5_000;
/** Companies whose owners are fetched before the walk (the rest come per layer). */
const PREFETCH_CAP = 2_000;
/** Paths shown per candidate (the share always sums all of them). */
const PATHS_SHOWN = 50;

export interface UltimateOwnerDeps {
  chains: Pick<OwnershipChainRepository, 'norwegianOwners' | 'norwegianTree' | 'danishOwners'>;
  shareholders: Pick<ShareholderRepository, 'years'>;
}

export interface UltimateOwnerOpts {
  country?: OwnershipCountry;
  year?: number;
  threshold?: number;
  maxDepth?: number;
  includePersons?: boolean;
}

const range = (b: Band) => ({ low: pct(b.low), high: pct(b.high) });

function hopView(h: Hop, banded: boolean) {
  const person = h.kind === 'person';
  return {
    kind: h.kind,
    // A person is a name and a birth year: never an id.
    orgNumber: person ? null : h.orgNumber,
    name: h.name,
    country: h.country,
    ...(person && !banded ? { birthYear: h.birthYear } : {}),
    pct: isPoint(h.share) ? pct(h.share.low) : null,
    ...(banded ? { pctRange: range(h.share) } : {}),
    year: h.year,
    shareClass: h.shareClass,
  };
}

function candidateView(c: Candidate, banded: boolean) {
  return {
    kind: c.kind,
    orgNumber: c.kind === 'person' ? null : c.orgNumber,
    name: c.name,
    country: c.country,
    ...(c.kind === 'person' && !banded ? { birthYear: c.birthYear } : {}),
    effectivePct: isPoint(c.share) ? pct(c.share.low) : null,
    ...(banded ? { effectivePctRange: range(c.share) } : {}),
    controls: c.controls,
    stopReason: c.stopReason,
    pathCount: c.paths.length,
    paths: c.paths.slice(0, PATHS_SHOWN).map((p) => p.map((h) => hopView(h, banded))),
  };
}

const flagView = (f: Flag) => ({ value: f.value, evidence: f.evidence });

/**
 * The walk's loader for Norway: the owners of the whole tree fetched up front in two queries (the
 * tree, then its owners), and any company outside it (past the prefetch cap) asked for per layer.
 */
async function norwegianLoader(
  chains: UltimateOwnerDeps['chains'],
  root: string,
  opts: { year: number | undefined; includePersons: boolean; maxDepth: number },
) {
  const tree = await chains.norwegianTree(root, { year: opts.year, maxDepth: opts.maxDepth, cap: PREFETCH_CAP });
  const fetched = new Set(tree);
  const owners = await chains.norwegianOwners(tree, opts);
  return async (orgs: string[]) => {
    const rest = orgs.filter((o) => !fetched.has(o));
    const more = rest.length ? await chains.norwegianOwners(rest, opts) : new Map();
    return new Map([...orgs.flatMap((o) => (owners.has(o) ? [[o, owners.get(o)!] as const] : [])), ...more]);
  };
}

export function createUltimateOwnerService(deps: UltimateOwnerDeps) {
  return {
    async owners(rawOrgNumber: string, opts: UltimateOwnerOpts) {
      const country: OwnershipCountry = opts.country ?? 'NO';
      const dk = country === 'DK';
      const includePersons = opts.includePersons === true;
      const threshold = opts.threshold ?? 25;
      const maxDepth = opts.maxDepth ?? 10;
      let orgNumber: string;
      let year: number | null;
      let loaded: number[] = [];
      if (dk) {
        orgNumber = danishCvrNumber(rawOrgNumber, 'params.orgNumber');
        if (opts.year !== undefined)
          throw invalid('query.year', "Danish owners are CVR's current register: there are no years to choose from");
        year = null;
      } else {
        orgNumber = norwegianOrgNumber(rawOrgNumber, 'params.orgNumber');
        loaded = await deps.shareholders.years();
        year = opts.year ?? loaded[0] ?? null;
      }
      const load = dk
        ? (orgs: string[]) => deps.chains.danishOwners(orgs, { includePersons })
        : await norwegianLoader(deps.chains, orgNumber, { year: year ?? undefined, includePersons, maxDepth });
      const walk = await walkOwnership(orgNumber, load, { maxDepth, maxPaths: MAX_PATHS });

      const all = candidatesOf(walk.terminals);
      const persons = all.filter((c) => c.kind === 'person');
      const shown = all.filter((c) => includePersons || c.kind !== 'person');
      const above = shown.filter((c) => c.share.high * 100 >= threshold - 1e-9);
      const untraced = walk.found ? untracedShare(all) : { low: 1, high: 1 };
      const flags = structureFlags(country, walk.terminals);

      // Companies read from an earlier year than asked (no rows in the year itself), once each.
      const fallbacks = new Map<string, { orgNumber: string; name: string | null; usedYear: number }>();
      if (year !== null && walk.root && walk.root.year !== null && walk.root.year < year)
        fallbacks.set(orgNumber, { orgNumber, name: walk.root.name, usedYear: walk.root.year });
      for (const t of walk.terminals)
        t.hops.forEach((h, i) => {
          const owned = i === 0 ? orgNumber : t.hops[i - 1].orgNumber;
          if (year !== null && owned && h.year !== null && h.year < year && !fallbacks.has(owned))
            fallbacks.set(owned, {
              orgNumber: owned,
              name: i === 0 ? (walk.root?.name ?? null) : t.hops[i - 1].name,
              usedYear: h.year,
            });
        });

      const personShare = persons.reduce((s, c) => ({ low: s.low + c.share.low, high: s.high + c.share.high }), {
        low: 0,
        high: 0,
      });
      return {
        orgNumber,
        country,
        name: walk.root?.name ?? null,
        basis: BASIS,
        year,
        yearFallbacks: [...fallbacks.values()].map((f) => ({ ...f, requestedYear: year! })),
        threshold,
        maxDepth,
        candidates: above.map((c) => candidateView(c, dk)),
        candidatesBelowThreshold: shown.length - above.length,
        untracedPct: isPoint(untraced) ? pct(untraced.low) : null,
        ...(dk ? { untracedPctRange: range(untraced) } : {}),
        ...(includePersons
          ? {}
          : { hiddenPersonsPct: isPoint(personShare) ? pct(Math.min(1, personShare.low)) : null }),
        flags: {
          layers: flags.layers,
          jurisdictions: flags.jurisdictions,
          jurisdictionCodes: flags.jurisdictionCodes,
          cycle: flagView(flags.cycle),
          trustOrArrangement: flagView(flags.trustOrArrangement),
          nonEeaJurisdiction: flagView(flags.nonEeaJurisdiction),
          nominee: flagView(flags.nominee),
          complexStructure: flagView(flags.complexStructure),
        },
        companiesInTree: walk.companiesVisited,
        truncated: walk.truncated,
        // Nothing found: the register years this server holds may be why (none, or not the asked one).
        ...(walk.found
          ? {}
          : {
              message:
                (dk ? undefined : emptyNote(0, loaded, opts.year)) ??
                'No owners of this company are known in the shareholder register',
            }),
      };
    },
  };
}
