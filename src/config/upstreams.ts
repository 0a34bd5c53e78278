// The upstreams section: where each register, list and bureau is read from, how live fetches
// protect the registries behind them, and the pace of the web-profile crawler.
import { int, str, url, type Env } from './env.ts';

const HTTP = ['http', 'https'];

export interface UpstreamsConfig {
  brregBaseUrl: string;
  /** Deadline of one live request to brreg (headers and body), in ms. */
  brregTimeoutMs: number;
  prhBaseUrl: string;
  /** Denmark: CVR's system-til-system Elasticsearch; the jobs run only with both credentials set. */
  cvr: { baseUrl: string; username: string | undefined; password: string | undefined };
  bolagsverketBulkUrl: string;
  /** Finland: PRH's open XBRL API of filed financial statements (no key), paced to requestsPerMinute. */
  prhXbrl: { baseUrl: string; requestsPerMinute: number };
  /**
   * Sweden: Bolagsverket's high-value-datasets API (OAuth2 client credentials, 60 requests a minute
   * per client); the financials job runs only with both credentials set.
   */
  bolagsverketApi: {
    baseUrl: string;
    tokenUrl: string;
    clientId: string | undefined;
    clientSecret: string | undefined;
    requestsPerMinute: number;
  };
  inspectionsUrl: string;
  licensesUrl: string | undefined;
  sanctionsUrl: string;
  /** Statistics bureaus' API roots (market context): SSB, SCB, Statistics Finland, Statistics Denmark. */
  statistics: { NO: string; SE: string; FI: string; DK: string };
  /** Procurement notices: Doffin's public API (key optional) and TED's search API. */
  procurement: { doffinBaseUrl: string; doffinApiKey: string | undefined; tedBaseUrl: string };
}

export interface LiveFetchConfig {
  /** How long a number the registry does not know (404/410) is not asked for again. */
  negativeTtlMs: number;
  /** Requests per second to one upstream host, shared by every process (Redis or PostgreSQL). */
  ratePerSecond: number;
  /** How long a request may wait for the shared budget before it is answered `unavailable`. */
  rateWaitMs: number;
  /** Consecutive 5xx answers or timeouts that open the circuit breaker. */
  breakerFailures: number;
  /** How long an open breaker answers at once before one half-open probe is let through. */
  breakerResetMs: number;
  /** Upstream requests per key and UTC day by tier for live fetches (null: unlimited). */
  dailyBudget: Record<'free' | 'pro' | 'enterprise' | 'internal', number | null>;
}

/** Web-profile crawler: fetches in flight, pause between requests to one host, deadline per fetch. */
export interface WebProfileConfig {
  concurrency: number;
  hostDelayMs: number;
  timeoutMs: number;
}

export function upstreams(env: Env): UpstreamsConfig {
  return {
    brregBaseUrl: url(env, 'BRREG_BASE_URL', 'https://data.brreg.no', HTTP)!,
    brregTimeoutMs: int(env, 'BRREG_TIMEOUT_MS', 10000, 100, 120000),
    prhBaseUrl: url(env, 'PRH_BASE_URL', 'https://avoindata.prh.fi/opendata-ytj-api/v3', HTTP)!,
    cvr: {
      baseUrl: url(env, 'CVR_BASE_URL', 'https://distribution.virk.dk', HTTP)!,
      username: str(env, 'CVR_USERNAME'),
      password: str(env, 'CVR_PASSWORD'),
    },
    bolagsverketBulkUrl: url(
      env,
      'BOLAGSVERKET_BULK_URL',
      'https://vardefulla-datamangder.bolagsverket.se/bolagsverket/bolagsverket_bulkfil.zip',
      HTTP,
    )!,
    prhXbrl: {
      baseUrl: url(env, 'PRH_XBRL_BASE_URL', 'https://avoindata.prh.fi/opendata-xbrl-api/v3', HTTP)!,
      requestsPerMinute: int(env, 'PRH_XBRL_REQUESTS_PER_MINUTE', 60, 1, 600_000),
    },
    bolagsverketApi: {
      baseUrl: url(env, 'BOLAGSVERKET_BASE_URL', 'https://gw.api.bolagsverket.se/vardefulla-datamangder/v1', HTTP)!,
      tokenUrl: url(env, 'BOLAGSVERKET_TOKEN_URL', 'https://portal.api.bolagsverket.se/oauth2/token', HTTP)!,
      clientId: str(env, 'BOLAGSVERKET_CLIENT_ID'),
      clientSecret: str(env, 'BOLAGSVERKET_CLIENT_SECRET'),
      // Bolagsverket allows 60 a minute per client; more only against a local fake.
      requestsPerMinute: int(env, 'BOLAGSVERKET_REQUESTS_PER_MINUTE', 60, 1, 600_000),
    },
    inspectionsUrl: url(env, 'INSPECTIONS_URL', 'https://data.mattilsynet.no/smilefjes-tilsyn.csv', HTTP)!,
    licensesUrl: url(env, 'LICENSES_URL', undefined, HTTP),
    sanctionsUrl: url(
      env,
      'SANCTIONS_URL',
      'https://data.opensanctions.org/datasets/latest/default/entities.ftm.json',
      HTTP,
    )!,
    statistics: {
      NO: url(env, 'SSB_BASE_URL', 'https://data.ssb.no/api/v0', HTTP)!,
      SE: url(env, 'SCB_BASE_URL', 'https://api.scb.se/OV0104/v1/doris', HTTP)!,
      FI: url(env, 'STATFI_BASE_URL', 'https://pxdata.stat.fi/PxWeb/api/v1', HTTP)!,
      DK: url(env, 'DST_BASE_URL', 'https://api.statbank.dk/v1', HTTP)!,
    },
    procurement: {
      doffinBaseUrl: url(env, 'DOFFIN_BASE_URL', 'https://api.doffin.no/public/v2', HTTP)!,
      doffinApiKey: str(env, 'DOFFIN_API_KEY'),
      tedBaseUrl: url(env, 'TED_BASE_URL', 'https://api.ted.europa.eu', HTTP)!,
    },
  };
}

export function liveFetch(env: Env): LiveFetchConfig {
  const budget = (name: string, fallback: number) => int(env, name, fallback, 0, 100_000_000) || null;
  return {
    negativeTtlMs: int(env, 'LIVE_FETCH_NEGATIVE_TTL_HOURS', 24, 0, 24 * 365) * 3_600_000,
    ratePerSecond: int(env, 'UPSTREAM_RATE_PER_SECOND', 50, 1, 100_000),
    rateWaitMs: int(env, 'UPSTREAM_RATE_WAIT_MS', 3000, 0, 60_000),
    breakerFailures: int(env, 'UPSTREAM_BREAKER_FAILURES', 5, 1, 1000),
    breakerResetMs: int(env, 'UPSTREAM_BREAKER_RESET_MS', 30_000, 100, 3_600_000),
    dailyBudget: {
      free: budget('LIVE_FETCH_BUDGET_FREE', 400),
      pro: budget('LIVE_FETCH_BUDGET_PRO', 20_000),
      enterprise: budget('LIVE_FETCH_BUDGET_ENTERPRISE', 200_000),
      internal: budget('LIVE_FETCH_BUDGET_INTERNAL', 0),
    },
  };
}

/** The ENRICHMENT_* names are kept for existing deployments. */
export function webProfile(env: Env): WebProfileConfig {
  return {
    concurrency: int(env, 'ENRICHMENT_CONCURRENCY', 8, 1, 64),
    hostDelayMs: int(env, 'ENRICHMENT_HOST_DELAY_MS', 1000, 0, 60000),
    timeoutMs: int(env, 'ENRICHMENT_TIMEOUT_MS', 8000, 500, 60000),
  };
}
