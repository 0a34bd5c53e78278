// PRH/YTJ v3 search API for incremental refresh: `GET {base}/companies?registrationDateStart=…&page=N`
// → `{totalResults, companies: [...]}`. The fetch function is injected so tests (and the SSRF-safe
// client in production) decide how requests go out. A 429 is waited out (Retry-After, capped) only
// when the caller asks for it with `rateLimit`, through the shared retry loop of net/retry.ts.
import { retryAfterMs, withRetry } from '../../net/retry.ts';
import { RejectLog, type NordicCompanyRecord } from '../nordic-record.ts';
import { parsePrhCompany } from './map-company.ts';
import type { PrhCompaniesPage } from './types.ts';

export type FetchLike = (
  url: string,
  init?: { headers?: Record<string, string>; signal?: AbortSignal },
) => Promise<Response>;

export type PrhQuery = Record<string, string | number | undefined>;

export const PRH_DEFAULT_BASE_URL = 'https://avoindata.prh.fi/opendata-ytj-api/v3';

export class PrhHttpError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    message: string,
    /** The answer's Retry-After, in milliseconds, when it had a readable one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'PrhHttpError';
  }
}

export function prhCompaniesUrl(baseUrl: string, params: PrhQuery): string {
  const url = new URL('companies', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  return url.toString();
}

interface PrhRateLimitRetry {
  /** Retries after a 429. */
  retries: number;
  /** A longer Retry-After is cut to this. */
  maxWaitMs: number;
  /** Called before each wait. */
  onWait?(delayMs: number): void;
  sleep?(ms: number): Promise<unknown>;
}

/** Wait when a 429 names no (readable) Retry-After. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 30_000;

/**
 * One page of `/companies`, shape-checked but not mapped. Non-200 and bad JSON throw; with
 * `rateLimit`, a 429 is retried after its Retry-After first.
 */
export async function fetchPrhPage(
  baseUrl: string,
  params: PrhQuery,
  fetchImpl: FetchLike,
  options: { timeoutMs?: number; rateLimit?: PrhRateLimitRetry } = {},
): Promise<PrhCompaniesPage> {
  const { rateLimit } = options;
  if (!rateLimit) return fetchPrhPageOnce(baseUrl, params, fetchImpl, options);
  return withRetry(() => fetchPrhPageOnce(baseUrl, params, fetchImpl, options), {
    retries: rateLimit.retries,
    delayFor: (err) =>
      err instanceof PrhHttpError && err.status === 429
        ? Math.min(rateLimit.maxWaitMs, err.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS)
        : undefined,
    onRetry: ({ delayMs }) => rateLimit.onWait?.(delayMs),
    sleep: rateLimit.sleep,
  });
}

async function fetchPrhPageOnce(
  baseUrl: string,
  params: PrhQuery,
  fetchImpl: FetchLike,
  options: { timeoutMs?: number },
): Promise<PrhCompaniesPage> {
  const url = prhCompaniesUrl(baseUrl, params);
  let res: Response;
  try {
    res = await fetchImpl(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (err) {
    throw new Error(`PRH ${url}: request failed: ${(err as Error).message}`, { cause: err });
  }
  if (res.status !== 200) {
    const body = (await res.text().catch(() => '')).slice(0, 200);
    const retryAfter = res.headers.get('retry-after');
    const hint = res.status === 429 ? ` (rate limited; retry-after ${retryAfter ?? '?'})` : '';
    throw new PrhHttpError(
      res.status,
      url,
      `PRH ${url}: HTTP ${res.status}${hint}${body ? `: ${body}` : ''}`,
      retryAfterMs(retryAfter),
    );
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    throw new Error(`PRH ${url}: response is not JSON: ${(err as Error).message}`, { cause: err });
  }
  const page = body as Partial<PrhCompaniesPage> | null;
  if (!page || typeof page !== 'object' || !Array.isArray(page.companies) || typeof page.totalResults !== 'number') {
    throw new Error(`PRH ${url}: expected {totalResults, companies[]}`);
  }
  return { totalResults: page.totalResults, companies: page.companies };
}

export interface PrhPagingOptions {
  /** First page number to request. PRH numbers pages from 1 [unverified]; configurable for that reason. */
  firstPage?: number;
  /** Safety stop against an upstream that never returns an empty page. */
  maxPages?: number;
  timeoutMs?: number;
  rejects?: RejectLog;
}

/**
 * Walks `/companies` page by page and yields mapped companies. Stops at the first empty page or
 * once `totalResults` companies have been seen. Unmappable companies go to `rejects`.
 */
export async function* iteratePrhCompanies(
  baseUrl: string,
  params: PrhQuery,
  fetchImpl: FetchLike,
  options: PrhPagingOptions = {},
): AsyncGenerator<NordicCompanyRecord> {
  const rejects = options.rejects ?? new RejectLog('PRH /companies');
  const first = options.firstPage ?? 1;
  const maxPages = options.maxPages ?? 10_000;
  let seen = 0;
  for (let page = first; page < first + maxPages; page++) {
    const { totalResults, companies } = await fetchPrhPage(baseUrl, { ...params, page }, fetchImpl, options);
    if (companies.length === 0) return;
    for (const [i, raw] of companies.entries()) {
      let record: NordicCompanyRecord;
      try {
        record = parsePrhCompany(raw);
      } catch (err) {
        rejects.add(`page ${page} item ${i}`, (err as Error).message);
        continue;
      }
      yield record;
    }
    seen += companies.length;
    if (seen >= totalResults) return;
  }
  throw new Error(`PRH /companies: still not done after ${maxPages} pages; stopping`);
}
