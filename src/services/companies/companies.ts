// Company lookup and batch enrich: store first, Norwegian misses fetched live from brreg and
// stored like any ingest (the next call is a store hit). Finnish and Swedish companies come
// only from bulk syncs and are never fetched live.
import { nextUtcMidnight, secondsUntil } from '../../domain/limits.ts';
import { canonicalOrgNumber, isValidOrgNumber, ORG_NUMBER_FORMAT, type Country } from '../../domain/org-number.ts';
import type { Clock } from '../../domain/clock.ts';
import type { ReferenceData } from '../../domain/reference-data.ts';
import { ApiError, invalid } from '../../errors.ts';
import type { CompanyReadRepository, CompanyRow, StoredCompany } from '../../store/company-reads.ts';
import type { CompanyLookupRepository } from '../../store/company-lookup-row.ts';
import type { OwnerSummary } from '../../store/shareholders.ts';
import { lookupRecordJson } from './lookup-json.ts';
import type { CompanyWrite, CompanyWriteRepository } from '../../store/company-writes.ts';
import { buildCompanyRecord, type CompanyRecord } from './company-record.ts';
import { fetchNorwegianCompanies, type LiveFetchClient } from './live-fetch.ts';
import type { MarketContextService } from '../registers/market-context.ts';
import type { LiveFetchMissRepository } from '../../store/live-fetch-misses.ts';
import type { BudgetCaller, LiveFetchBudget } from '../support/live-fetch-budget.ts';
import type { UnavailableReason } from '../../domain/unavailable-reasons.ts';
import { SOURCE } from '../../domain/company.ts';
import { companyKey } from '../../store/company-changes.ts';
import { cacheBody, type RecordCache } from '../support/record-cache.ts';
import type { CompanyProcurementFields } from '../registers/procurement.ts';
import type { UpstreamClient } from '../../sources/upstream-http.ts';
import type { CvrOwnerRepository } from '../../store/cvr-owners.ts';
import type { MarketingProtectionRepository } from '../../store/marketing-protection.ts';
import { fetchDanishCompanies } from './live-fetch-dk.ts';

export interface CompanyServiceDeps {
  reference: ReferenceData;
  clock: Clock;
  reads: Pick<CompanyReadRepository, 'load' | 'foreignSharesOf' | 'ownersFor'>;
  /** The uncached lookup's one-statement read (its body written mostly by the database). */
  lookups?: Pick<CompanyLookupRepository, 'row'>;
  /** The largest owners of Danish companies (CVR bands), for ownershipConcentrationPct; absent: null. */
  danishOwners?: Pick<CompanyReadRepository, 'largestDanishOwnersOf'>;
  writes: Pick<CompanyWriteRepository, 'write' | 'purge'>;
  brreg: LiveFetchClient;
  /** CVR behind its guard; null without credentials: a DK miss is then `notFound`. */
  cvr?: Pick<UpstreamClient, 'getJson'> | null;
  cvrOwners?: Pick<CvrOwnerRepository, 'replace'>;
  /** DK's reklamebeskyttet of live-fetched companies. */
  marketingProtection?: Pick<MarketingProtectionRepository, 'set'>;
  market: Pick<MarketContextService, 'forCompany'>;
  /** Numbers brreg recently did not know: answered 404 without asking again. */
  misses: LiveFetchMissRepository;
  budget: LiveFetchBudget;
  /** How long a 404/410 from brreg is remembered (LIVE_FETCH_NEGATIVE_TTL_HOURS). */
  negativeTtlMs: number;
  /** Upstream requests in flight per call (DESIGN "Concurrency 10"). */
  concurrency?: number;
  /** Serialised lookup bodies of this process (record-cache.ts); none: every lookup reads the store. */
  cache?: RecordCache;
  /** Procurement figures of Norwegian records (activeTenders, latestTenderUrl, awardedContracts). */
  procurement?: { forCompanies(orgNumbers: string[]): Promise<Map<string, CompanyProcurementFields>> };
}

interface Pair {
  orgNumber: string;
  country: Country;
}

const WRITE_GROUP = 25;

/** The negative cache's name for Enhetsregisteret (live_fetch_misses.source). */
const LIVE_SOURCE = 'brreg';
const DK_LIVE_SOURCE = 'cvr';

const FULL = { financialsLimit: undefined, roles: true, subUnits: true, licenses: true } as const;

/** A Norwegian record loaded from a bulk dump has no roles, accounts or sub-units yet. */
const isIncomplete = (r: Pick<CompanyRow, 'country' | 'is_deleted' | 'fetched_at' | 'roles_hash'>) =>
  r.country === 'NO' && !r.is_deleted && r.fetched_at === null && r.roles_hash === null;

export function createCompanyService(deps: CompanyServiceDeps) {
  const { reference, clock, reads, writes, brreg } = deps;

  /**
   * Store hits, then a live fetch of the Norwegian misses (and completion of records that
   * came from a bulk dump). Returns what is known after the fetch.
   */
  async function resolveNorwegian(orgNumbers: string[], caller?: BudgetCaller) {
    let stored = await reads.load('NO', orgNumbers, FULL);
    const have = new Set(stored.map((s) => s.row.org_number));
    const now = clock.now();
    const unknown = await deps.misses.remembered(
      LIVE_SOURCE,
      orgNumbers.filter((n) => !have.has(n)),
      now,
    );
    const misses = orgNumbers.filter((n) => !have.has(n) && !unknown.has(n));
    const incomplete = stored.filter((s) => isIncomplete(s.row)).map((s) => s.row.org_number);
    const result = {
      unavailable: [] as string[],
      notFound: [...unknown],
      reasons: new Map<string, UnavailableReason>(),
    };
    if (!misses.length && !incomplete.length) return { stored, ...result };
    // Misses first, then completions of bulk-loaded records, as far as the key's budget goes;
    // an incomplete record beyond it is served as stored.
    const wanted = [...misses, ...incomplete];
    const admitted = await deps.budget.admit(caller, wanted.length);
    for (const n of misses.slice(admitted)) result.reasons.set(n, 'live_fetch_budget');
    const overBudget = misses.slice(admitted);

    // Companies are stored in groups while the others are still in flight; one transaction per
    // group keeps the (embedded) database's share of the event loop small.
    const pending: Promise<unknown>[] = [];
    let group: CompanyWrite[] = [];
    const flush = () => {
      if (group.length) pending.push(writes.write(group));
      group = [];
    };
    const outcome = await fetchNorwegianCompanies(brreg, wanted.slice(0, admitted), {
      concurrency: deps.concurrency ?? 10,
      onFound: (w) => {
        group.push(w);
        if (group.length >= WRITE_GROUP) flush();
      },
    });
    flush();
    await Promise.all(pending);
    for (const n of outcome.gone) await writes.purge('NO', n);
    await deps.misses.remember(
      LIVE_SOURCE,
      [...outcome.notFound, ...outcome.gone],
      new Date(now.getTime() + deps.negativeTtlMs),
    );
    const refetch = [...new Set([...outcome.found.map((w) => w.core.orgNumber), ...outcome.gone])];
    if (refetch.length) {
      const fresh = await reads.load('NO', refetch, FULL);
      const freshNumbers = new Set(refetch);
      stored = [...stored.filter((s) => !freshNumbers.has(s.row.org_number)), ...fresh];
    }
    const missSet = new Set(misses);
    // An incomplete record whose completion failed is still served from the store.
    result.unavailable = [...outcome.unavailable.filter((n) => missSet.has(n)), ...overBudget];
    for (const [n, reason] of outcome.reasons) if (missSet.has(n)) result.reasons.set(n, reason);
    result.notFound = [...result.notFound, ...outcome.notFound, ...outcome.gone].filter(
      (n) => missSet.has(n) || !stored.some((s) => s.row.org_number === n),
    );
    stored = stored.filter((s) => !outcome.gone.includes(s.row.org_number));
    return { stored, ...result };
  }

  /** Store hits, then a live fetch of the Danish misses from CVR when credentials are set. */
  async function resolveDanish(orgNumbers: string[], caller?: BudgetCaller) {
    const stored = await reads.load('DK', orgNumbers, FULL);
    const result = {
      stored,
      unavailable: [] as string[],
      notFound: [] as string[],
      reasons: new Map<string, UnavailableReason>(),
    };
    const have = new Set(stored.map((s) => s.row.org_number));
    const asked = orgNumbers.filter((n) => !have.has(n));
    if (!deps.cvr || !asked.length) return result;
    const now = clock.now();
    const unknown = await deps.misses.remembered(DK_LIVE_SOURCE, asked, now);
    const misses = asked.filter((n) => !unknown.has(n));
    const admitted = await deps.budget.admit(caller, misses.length);
    for (const n of misses.slice(admitted)) {
      result.unavailable.push(n);
      result.reasons.set(n, 'live_fetch_budget');
    }
    const outcome = await fetchDanishCompanies(deps.cvr, misses.slice(0, admitted), deps.concurrency ?? 10);
    if (outcome.found.length) {
      await writes.write(
        outcome.found.map((c) => ({ core: c.core, roles: c.roles, subUnits: c.subUnits, fetched: true })),
      );
      await deps.cvrOwners?.replace(outcome.found.map((c) => ({ cvr: c.core.orgNumber, owners: c.owners })));
      await deps.marketingProtection?.set(
        'DK',
        outcome.found.map((c) => ({ orgNumber: c.core.orgNumber, value: c.marketingProtected })),
      );
      result.stored = [
        ...stored,
        ...(await reads.load(
          'DK',
          outcome.found.map((c) => c.core.orgNumber),
          FULL,
        )),
      ];
    }
    await deps.misses.remember(DK_LIVE_SOURCE, outcome.notFound, new Date(now.getTime() + deps.negativeTtlMs));
    result.unavailable.push(...outcome.unavailable);
    for (const [n, r] of outcome.reasons) result.reasons.set(n, r);
    return result;
  }

  function validate(country: Country, raw: string, path: string): string {
    const n = canonicalOrgNumber(country, raw);
    if (!isValidOrgNumber(country, n)) throw invalid(path, `must be ${ORG_NUMBER_FORMAT[country]}`);
    return n;
  }

  /** One company from the store (a Norwegian miss fetched live), or the lookup's error. */
  async function findOne(country: Country, orgNumber: string, caller?: BudgetCaller): Promise<StoredCompany> {
    let company: StoredCompany | undefined;
    if (country === 'NO' || country === 'DK') {
      const r =
        country === 'NO' ? await resolveNorwegian([orgNumber], caller) : await resolveDanish([orgNumber], caller);
      company = r.stored[0];
      if (!company && r.reasons.get(orgNumber) === 'live_fetch_budget') {
        const now = clock.now();
        const retryAfter = secondsUntil(now, nextUtcMidnight(now));
        throw new ApiError('live_fetch_budget_exceeded', { headers: { 'Retry-After': retryAfter } });
      }
      if (!company && r.unavailable.length) throw new ApiError('upstream_unavailable');
    } else {
      company = (await reads.load(country, [orgNumber], FULL))[0];
    }
    if (!company) throw new ApiError('company_not_found');
    return company;
  }

  /** The companies with their foreign-held share (isForeignOwned), read for those with a register year. */
  async function withForeignShares<
    T extends { row: Pick<CompanyRow, 'org_number' | 'country'>; owners?: OwnerSummary },
  >(companies: T[]) {
    const owned = companies.filter((c) => c.owners?.largestShareholder).map((c) => c.row.org_number);
    const danish = companies.filter((c) => c.row.country === 'DK').map((c) => c.row.org_number);
    const [shares, bands] = await Promise.all([
      owned.length ? reads.foreignSharesOf(owned) : new Map(),
      danish.length && deps.danishOwners ? deps.danishOwners.largestDanishOwnersOf(danish) : new Map(),
    ]);
    return companies.map((c): T & Pick<StoredCompany, 'foreignShare' | 'danishLargestOwner'> =>
      c.owners?.largestShareholder
        ? { ...c, foreignShare: shares.get(c.row.org_number) ?? null }
        : c.row.country === 'DK'
          ? { ...c, danishLargestOwner: bands.get(c.row.org_number) ?? null }
          : c,
    );
  }

  /**
   * A stored, complete company's lookup body in one statement (two or three with owners), or
   * undefined when the live path must answer: not stored, or a bulk-loaded Norwegian record
   * still waiting for its live completion.
   */
  async function storedLookupJson(country: Country, orgNumber: string): Promise<string | undefined> {
    const now = clock.now();
    const row = await deps.lookups?.row(country, orgNumber, now);
    if (!row || isIncomplete(row)) return undefined;
    const [owners] = await reads.ownersFor([row], [row.has_owners]);
    const [ownership] = await withForeignShares([{ row, owners }]);
    return lookupRecordJson(row, ownership, reference, now);
  }

  async function withForeignSharesByKey(found: Map<string, StoredCompany>): Promise<[string, StoredCompany][]> {
    const keys = [...found.keys()];
    const companies = await withForeignShares(keys.map((k) => found.get(k)!));
    return keys.map((k, i) => [k, companies[i]]);
  }

  /** The lookup's record: the stored company with labels, and a Norwegian buyer's or winner's tenders. */
  async function fullRecord(country: Country, company: StoredCompany): Promise<CompanyRecord> {
    const orgNumber = company.row.org_number;
    const tenders = country === 'NO' ? (await deps.procurement?.forCompanies([orgNumber]))?.get(orgNumber) : undefined;
    const [withShares] = await withForeignShares([company]);
    return {
      ...buildCompanyRecord(withShares, reference, { labels: true, signals: { now: clock.now() } }),
      ...tenders,
    };
  }

  return {
    validate,

    /** The live-fetch protection as the health diagnostics show it. */
    async liveFetchDiagnostics() {
      return {
        negativeCacheHours: deps.negativeTtlMs / 3_600_000,
        rememberedNotFound: await deps.misses.countActive(clock.now()),
        dailyBudgets: { ...deps.budget.budgets },
      };
    },

    async lookup(country: Country, rawOrgNumber: string, opts: { context?: boolean; caller?: BudgetCaller } = {}) {
      const company = await findOne(country, validate(country, rawOrgNumber, 'params.orgNumber'), opts.caller);
      const record = await fullRecord(country, company);
      if (!opts.context) return record;
      const context = await deps.market.forCompany(company.row);
      const attribution = [...record._sources.attribution, SOURCE.ownStore, ...context.bureaus];
      return { ...record, context, _sources: { ...record._sources, attribution: [...new Set(attribution)] } };
    },

    /**
     * The lookup's response body (without context), serialised by the route's schema: from this
     * process's record cache when it holds the company, else built and cached. A record still
     * waiting for its live completion (bulk-loaded, over budget) is served but not cached.
     */
    async lookupBody(
      country: Country,
      rawOrgNumber: string,
      opts: { caller?: BudgetCaller; serialize: (record: CompanyRecord) => string },
    ): Promise<Buffer> {
      const orgNumber = validate(country, rawOrgNumber, 'params.orgNumber');
      const key = companyKey(country, orgNumber);
      const cached = deps.cache?.get(key);
      if (cached) return cached;
      const ticket = deps.cache?.ticket();
      const stored = await storedLookupJson(country, orgNumber);
      if (stored !== undefined) {
        const body = cacheBody(stored);
        if (ticket !== undefined) deps.cache?.set(key, body, ticket);
        return body;
      }
      const company = await findOne(country, orgNumber, opts.caller);
      const body = cacheBody(opts.serialize(await fullRecord(country, company)));
      if (ticket !== undefined && !isIncomplete(company.row)) deps.cache?.set(key, body, ticket);
      return body;
    },
    /** Batch enrich: one answer per distinct (country, number); misses reported, never fatal. */
    async enrich(
      pairs: Pair[],
      caller?: BudgetCaller,
    ): Promise<{
      data: CompanyRecord[];
      notFound: Pair[];
      unavailable: Pair[];
      unavailableReasons: Record<string, UnavailableReason>;
    }> {
      const unavailableReasons: Record<string, UnavailableReason> = {};
      const seen = new Set<string>();
      const unique = pairs.filter((p) => {
        const k = `${p.country}:${p.orgNumber}`;
        return seen.has(k) ? false : (seen.add(k), true);
      });
      const data: CompanyRecord[] = [];
      const notFound: Pair[] = [];
      const unavailable: Pair[] = [];
      const byCountry = new Map<Country, string[]>();
      for (const p of unique) byCountry.set(p.country, [...(byCountry.get(p.country) ?? []), p.orgNumber]);
      const found = new Map<string, StoredCompany>();
      for (const [country, numbers] of byCountry) {
        if (country === 'NO' || country === 'DK') {
          const r = country === 'NO' ? await resolveNorwegian(numbers, caller) : await resolveDanish(numbers, caller);
          for (const s of r.stored) found.set(`${country}:${s.row.org_number}`, s);
          for (const n of r.unavailable) {
            unavailable.push({ orgNumber: n, country });
            unavailableReasons[n] = r.reasons.get(n) ?? 'upstream_error';
          }
        } else {
          for (const s of await reads.load(country, numbers, FULL)) found.set(`${country}:${s.row.org_number}`, s);
        }
      }
      const unavailableSet = new Set(unavailable.map((p) => `${p.country}:${p.orgNumber}`));
      for (const [k, s] of await withForeignSharesByKey(found)) found.set(k, s);
      const norwegian = [...found.values()].filter((s) => s.row.country === 'NO').map((s) => s.row.org_number);
      const tenders = norwegian.length ? await deps.procurement?.forCompanies(norwegian) : undefined;
      for (const p of unique) {
        const k = `${p.country}:${p.orgNumber}`;
        const s = found.get(k);
        if (s)
          data.push({
            ...buildCompanyRecord(s, reference, { signals: { now: clock.now() } }),
            ...(p.country === 'NO' ? tenders?.get(p.orgNumber) : undefined),
          });
        else if (!unavailableSet.has(k)) notFound.push(p);
      }
      return { data, notFound, unavailable, unavailableReasons };
    },
  };
}

export type CompanyService = ReturnType<typeof createCompanyService>;
