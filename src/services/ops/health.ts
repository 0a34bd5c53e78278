// GET /api/health: the database probe (public) and, for a caller with the sync secret, the
// diagnostics: engine, record counts, each data source's latest sync, and the protection of
// the upstreams behind live fetches.
import type { Clock } from '../../domain/clock.ts';
import { safeEqual } from '../../domain/secrets.ts';
import type { Store } from '../../store/engine/db.ts';
import type { Repositories } from '../../store/repositories.ts';
import type { CompanyService } from '../companies/companies.ts';
import type { CoverageService } from './coverage.ts';
import type { ChangeFeedService } from '../change-feed/change-feed.ts';
import type { RecordCache } from '../support/record-cache.ts';
import type { UpstreamGuardState } from '../../sources/upstream-guard.ts';

const PROBE_TIMEOUT_MS = 3000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database probe timed out')), ms);
    }),
  ]);
}

export interface HealthServiceDeps {
  store: Pick<Store, 'ping' | 'engine' | 'replicas'>;
  records: Repositories['health'];
  coverage: CoverageService;
  /** Live-fetch protection (negative cache, daily budgets). */
  companies: Pick<CompanyService, 'liveFetchDiagnostics'>;
  /** Hit rate and size of this process's record cache. */
  recordCache: Pick<RecordCache, 'diagnostics'>;
  /** Pages of the change feed read ahead for clients draining it. */
  feedReadAhead: Pick<ChangeFeedService, 'readAheadStats'>;
  /** Breaker and shared budget of each guarded upstream host. */
  upstreams: { state(): UpstreamGuardState }[];
  clock: Clock;
  /** X-Sync-Secret that unlocks the diagnostics; undefined: diagnostics off. */
  syncSecret: string | undefined;
  /** Deadline of the diagnostic queries. */
  statementTimeoutMs: number;
}

export function createHealthService(deps: HealthServiceDeps) {
  return {
    /** Resolves when the database answers within the probe deadline; rejects otherwise. */
    probe: () => withTimeout(deps.store.ping(), PROBE_TIMEOUT_MS),

    /** True only for the configured sync secret (compared in constant time). */
    unlocksDiagnostics(secret: unknown): boolean {
      return deps.syncSecret !== undefined && typeof secret === 'string' && safeEqual(secret, deps.syncSecret);
    },

    async diagnostics() {
      const [records, dataSources, liveFetch] = await withTimeout(
        Promise.all([deps.records.recordCounts(), deps.coverage.dataSources(), deps.companies.liveFetchDiagnostics()]),
        deps.statementTimeoutMs,
      );
      return {
        status: 'ok',
        timestamp: deps.clock.now().toISOString(),
        database: 'connected',
        engine: deps.store.engine === 'embedded' ? 'pglite' : 'postgresql',
        records,
        dataSources,
        upstreams: deps.upstreams.map((g) => g.state()),
        liveFetch,
        recordCache: deps.recordCache.diagnostics(),
        feedReadAhead: deps.feedReadAhead.readAheadStats(),
        replicas: deps.store.replicas?.status() ?? [],
        memory: processMemory(),
      };
    },
  };
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** This process's memory: where its resident size goes (the embedded engine's thread counts in rss). */
function processMemory() {
  const m = process.memoryUsage();
  return {
    rssMb: mb(m.rss),
    heapTotalMb: mb(m.heapTotal),
    heapUsedMb: mb(m.heapUsed),
    externalMb: mb(m.external),
    arrayBuffersMb: mb(m.arrayBuffers),
  };
}
