// Live fetch of Norwegian companies from brreg for lookups and batch enrich. One budget of
// at most `concurrency` upstream requests in flight covers the whole call: the core records
// of all misses come in one batched search, and roles, sub-units and accounts per company
// share the same slots. No accounts request is made for a unit that never filed.
import pLimit from 'p-limit';
import type { CompanyWrite } from '../../store/company-writes.ts';
import { mapEnhet, mapRegnskap, mapRoller, mapUnderenhet } from '../../sources/brreg/map.ts';
import type { BrregClient } from '../../sources/brreg/client.ts';
import type { BrregEnhet } from '../../sources/brreg/types.ts';
import { reasonOfFailure, type UnavailableReason } from '../../domain/unavailable-reasons.ts';

interface FetchOutcome {
  found: CompanyWrite[];
  /** Unknown to the registry (404). */
  notFound: string[];
  /** Removed for legal reasons (410): purge every copy. */
  gone: string[];
  /** The registry failed or timed out for these; nothing is known. */
  unavailable: string[];
  /** Why each of `unavailable` is. */
  reasons: Map<string, UnavailableReason>;
}

/** The registry calls a live fetch makes (a fake registry implements just these). */
export type LiveFetchClient = Pick<
  BrregClient,
  'getEnhet' | 'searchEnheter' | 'subUnitsOf' | 'getRoller' | 'getRegnskap'
>;

interface FetchOptions {
  concurrency?: number;
  /** Called as soon as a company is complete, so storing overlaps with the other fetches. */
  onFound?: (write: CompanyWrite) => void;
  /** Already have the core record (stored from a bulk dump): fetch only the other parts. */
  knownCores?: Map<string, BrregEnhet>;
}

export async function fetchNorwegianCompanies(
  client: LiveFetchClient,
  orgNumbers: string[],
  opts: FetchOptions = {},
): Promise<FetchOutcome> {
  const slot = pLimit(opts.concurrency ?? 10);
  const out: FetchOutcome = { found: [], notFound: [], gone: [], unavailable: [], reasons: new Map() };
  const fail = (n: string, err: unknown) => {
    out.unavailable.push(n);
    out.reasons.set(n, reasonOfFailure((err as { kind?: string }).kind));
  };
  const found = (w: CompanyWrite) => {
    out.found.push(w);
    opts.onFound?.(w);
  };
  const cores = new Map<string, BrregEnhet>(opts.knownCores ?? []);
  const wanted = orgNumbers.filter((n) => !cores.has(n));
  // Roles and sub-units do not depend on the core record, so they are queued at once, right
  // behind the core search: all slots are busy from the first moment. Accounts wait for the
  // core record (asked for only when the unit has filed any).
  const parts = new Map<
    string,
    Promise<[Awaited<ReturnType<BrregClient['getRoller']>>, Awaited<ReturnType<BrregClient['subUnitsOf']>>]>
  >();
  const startParts = (n: string) => {
    const p = Promise.all([slot(() => client.getRoller(n)), slot(() => client.subUnitsOf(n))]);
    p.catch(() => undefined); // awaited (and its failure handled) in complete()
    parts.set(n, p);
  };

  async function complete(n: string, enhet: BrregEnhet): Promise<void> {
    const core = mapEnhet(enhet);
    if (core.isDeleted) return found({ core, roles: [], subUnits: [], fetched: true });
    if (!parts.has(n)) startParts(n);
    try {
      const [[roller, subUnits], regnskap] = await Promise.all([
        parts.get(n)!,
        enhet.sisteInnsendteAarsregnskap ? slot(() => client.getRegnskap(n)) : Promise.resolve([]),
      ]);
      found({
        core,
        roles: mapRoller(roller),
        financials: mapRegnskap(regnskap),
        subUnits: subUnits.map(mapUnderenhet),
        fetched: true,
      });
    } catch (err) {
      fail(n, err);
    }
  }

  async function lookupOne(n: string): Promise<void> {
    let enhet: BrregEnhet | undefined;
    try {
      const r = await slot(() => client.getEnhet(n));
      if (r.kind === 'found' || r.kind === 'deleted') enhet = r.enhet;
      else if (r.kind === 'gone') out.gone.push(n);
      else out.notFound.push(n);
    } catch (err) {
      fail(n, err);
    }
    if (enhet) await complete(n, enhet);
  }

  const tasks: Promise<void>[] = [];
  if (wanted.length > 1) {
    // Core records of many misses: one search request for up to 1000 numbers.
    const search = slot(() => client.searchEnheter(wanted));
    search.catch(() => undefined);
    for (const n of wanted) startParts(n);
    for (const [n, e] of cores) tasks.push(complete(n, e));
    let searched: BrregEnhet[] | undefined;
    try {
      searched = await search;
    } catch {
      searched = undefined;
    }
    // Search leaves out deleted and removed units: those are asked for one by one.
    const byNumber = new Map((searched ?? []).map((e) => [e.organisasjonsnummer, e]));
    for (const n of wanted) tasks.push(byNumber.has(n) ? complete(n, byNumber.get(n)!) : lookupOne(n));
  } else {
    for (const [n, e] of cores) tasks.push(complete(n, e));
    for (const n of wanted) tasks.push(lookupOne(n));
  }
  await Promise.all(tasks);
  // Keep the caller's order.
  const order = new Map(orgNumbers.map((n, i) => [n, i]));
  out.found.sort((a, b) => (order.get(a.core.orgNumber) ?? 0) - (order.get(b.core.orgNumber) ?? 0));
  return out;
}
