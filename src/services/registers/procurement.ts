// GET /api/procurement and /api/procurement/{noticeId}: procurement notices with filters, sorts,
// tier-capped pages, signed cursors bound to the query and the shared cursor-depth guard; and
// the procurement figures of company records (open tenders as buyer, contracts won).
import type { Clock } from '../../domain/clock.ts';
import { normaliseCompanyName } from '../../domain/company.ts';
import { isValidNorwegianOrgNumber } from '../../domain/org-number.ts';
import { ApiError, invalid } from '../../errors.ts';
import type {
  CompanyProcurement,
  ProcurementFilters,
  ProcurementRepository,
  ProcurementRow,
} from '../../store/procurement.ts';
import { statusAt } from '../../store/procurement.ts';
import type { ProcurementQuery as ContractQuery } from '../../contract/procurement.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { Pagination } from '../support/pagination.ts';
import type { SyncRunRepository } from '../../store/ops/sync-runs.ts';

type ProcurementQuery = ContractQuery;

export interface ProcurementServiceDeps {
  procurement: ProcurementRepository;
  clock: Clock;
  pagination: Pagination;
  /** Which sources have synced: an empty page says so when none covering the country has. */
  syncRuns: Pick<SyncRunRepository, 'latestBySource'>;
}

/** Doffin publishes Norwegian notices; TED those of every country here, Norway's included. */
const SOURCES_OF = (country: string | undefined) =>
  country === undefined || country === 'NO' ? ['doffin', 'ted'] : ['ted'];
const SOURCE_NAME: Record<string, string> = { doffin: 'Doffin', ted: 'TED' };

/** Why a first page is empty when no source that could fill it has ever synced; else undefined. */
async function emptyNote(deps: ProcurementServiceDeps, country: string | undefined): Promise<string | undefined> {
  const runs = await deps.syncRuns.latestBySource();
  const sources = SOURCES_OF(country);
  if (sources.some((s) => runs[s]?.lastSuccess)) return undefined;
  // Files loaded by hand (ncd sync procurement --file) record the job's run only: any country.
  if (runs.procurement?.lastSuccess && !runs.doffin && !runs.ted) return undefined;
  const names = sources.map((s) => SOURCE_NAME[s]).join(' or ');
  return country
    ? `No procurement source with ${country} notices (${names}) has been loaded on this server (an operator runs ncd sync procurement)`
    : `No procurement source (${names}) has been loaded on this server (an operator runs ncd sync procurement)`;
}

/** The public page of a notice: Doffin's when it is there, else TED's. */
function noticeUrl(r: Pick<ProcurementRow, 'doffin_id' | 'ted_id' | 'eforms_id'>): string {
  if (r.doffin_id) return `https://www.doffin.no/notices/${r.doffin_id}`;
  if (r.ted_id) return `https://ted.europa.eu/en/notice/-/detail/${r.ted_id}`;
  return `https://ted.europa.eu/en/search/result?search-scope=ALL&FT=${encodeURIComponent(r.eforms_id)}`;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
const num = (v: number | string | null) => (v === null ? null : Number(v));

function procurementItem(r: ProcurementRow, now: Date) {
  return {
    noticeId: r.notice_id ?? r.eforms_id,
    doffinId: r.doffin_id,
    tedId: r.ted_id,
    eformsId: r.eforms_id,
    procedureId: r.procedure_id,
    noticeType: r.notice_type,
    noticeTypeCode: r.notice_type_code,
    status: statusAt(r, now),
    title: r.title,
    description: r.description,
    orgNumber: r.org_number,
    contractingAuthority: r.buyer_name,
    country: r.country,
    cpvCodes: r.cpv_codes,
    procedureType: r.procedure_type,
    publishedDate: iso(r.published_date),
    deadline: iso(r.deadline),
    estimatedValue: num(r.estimated_value),
    currency: r.currency,
    awardedValue: num(r.awarded_value),
    lots: r.lots as never[],
    placeOfPerformance: r.nuts_codes,
    winners: r.winners as never[],
    url: noticeUrl(r),
    sources: [...(r.doffin_id ? ['doffin'] : []), ...(r.ted_id ? ['ted'] : [])],
    updatedAt: iso(r.synced_at)!,
  };
}

function instant(name: string, v: string | undefined): Date | undefined {
  if (v === undefined) return undefined;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(ms)) throw invalid(`query.${name}`, 'must be a date (YYYY-MM-DD) or an ISO date-time');
  return new Date(ms);
}

export function procurementFieldsOf(p: CompanyProcurement) {
  const award = p.latestAward;
  return {
    activeTenders: p.activeTenders,
    latestTenderUrl: p.latestTender ? noticeUrl(p.latestTender) : null,
    awardedContracts: {
      count: p.awardedCount,
      latest: award
        ? {
            noticeId: award.notice_id ?? award.eforms_id,
            title: award.title,
            value: num(award.awarded_value),
            currency: award.currency,
            publishedDate: iso(award.published_date),
            url: noticeUrl(award),
          }
        : null,
    },
  };
}

export type CompanyProcurementFields = ReturnType<typeof procurementFieldsOf>;

export function createProcurementService(deps: ProcurementServiceDeps) {
  return {
    async list(caller: AuthContext, q: ProcurementQuery) {
      if (q.orgNumber !== undefined && !isValidNorwegianOrgNumber(q.orgNumber))
        throw invalid('query.orgNumber', 'must be 9 digits with a valid check digit');
      if (q.role !== undefined && q.orgNumber === undefined)
        throw invalid('query.role', 'needs orgNumber (the buyer or winner it selects)');
      const sort = q.sort ?? 'publishedAt';
      const order = q.order ?? 'desc';
      const filters: ProcurementFilters = {
        orgNumber: q.orgNumber,
        role: q.role,
        status: q.status,
        cpv: q.cpv,
        deadlineAfter: instant('deadlineAfter', q.deadlineAfter),
        publishedAfter: instant('publishedAfter', q.publishedAfter),
        q: q.q === undefined ? undefined : normaliseCompanyName(q.q),
        country: q.country,
      };
      // Bound to the status, not to the instant: "now" moves between pages.
      const bound = { ...filters, deadlineAfter: q.deadlineAfter, publishedAfter: q.publishedAfter, sort, order };
      const now = deps.clock.now();
      const page = await deps.pagination.page(
        caller,
        { scope: 'procurement', bound, cursor: q.cursor, limit: q.limit, depthGuard: true },
        (limit, after) => deps.procurement.list(filters, now, sort, order, limit, after),
      );
      const note = page.rows.length || q.cursor ? undefined : await emptyNote(deps, q.country);
      return {
        data: page.rows.map((r) => procurementItem(r, now)),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
        ...(note ? { note } : {}),
      };
    },

    async get(noticeId: string) {
      const row = await deps.procurement.get(noticeId);
      if (!row) throw new ApiError('notice_not_found');
      return procurementItem(row, deps.clock.now());
    },

    /** activeTenders, latestTenderUrl and awardedContracts of Norwegian company records, by number. */
    async forCompanies(orgNumbers: string[]) {
      const figures = await deps.procurement.forCompanies(orgNumbers, deps.clock.now());
      return new Map([...figures].map(([org, p]) => [org, procurementFieldsOf(p)]));
    },
  };
}
