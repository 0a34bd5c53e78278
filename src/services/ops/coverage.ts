// Coverage and freshness: the country x category table of the latest nightly snapshot (cached in
// this process for an hour, as the table changes once a night), and health's per-source status.
import type { Clock } from '../../domain/clock.ts';
import { DATA_SOURCES } from '../../domain/data-sources.ts';
import { COVERAGE_CATEGORIES, type CoverageCell, type CoverageRepository } from '../../store/ops/coverage.ts';
import type { DataSourceStatus, LatestRun, SyncRunRepository } from '../../store/ops/sync-runs.ts';
import type { FinancialFilingRepository, SkippedFilings } from '../../store/financial-filings.ts';

const COVERAGE_CACHE_MS = 60 * 60 * 1000;

interface CoverageTable {
  snapshotAt: string | null;
  countries: string[];
  categories: string[];
  rows: CoverageCell[];
}

interface SourceStatus extends Omit<DataSourceStatus, 'lastSync' | 'status'> {
  lastSync: string | null;
  status: DataSourceStatus['status'] | 'never' | 'degraded';
  /** degraded: the parts (statistics tables) whose previous data were kept, and why. */
  tables?: { table: string; problem: string }[];
  /** Filings the source's job skipped (financials jobs): how many, and the latest with their reasons. */
  skipped?: SkippedFilings;
  /** Why the scheduler does not run the source's job here (e.g. its credentials are not set). */
  notScheduled?: string;
}

/** The parts an ok run of a sub-source recorded as not done (`degraded` in its sync state). */
function degradedParts(state: Record<string, unknown> | undefined): { table: string; problem: string }[] {
  const parts = state?.degraded;
  if (!Array.isArray(parts)) return [];
  return parts.filter(
    (p): p is { table: string; problem: string } =>
      typeof p === 'object' && p !== null && typeof p.table === 'string' && typeof p.problem === 'string',
  );
}

const NEVER: SourceStatus = { lastSync: null, status: 'never', recordsProcessed: 0, lastSuccess: null, message: null };

export interface CoverageServiceDeps {
  coverage: CoverageRepository;
  syncRuns: SyncRunRepository;
  clock: Clock;
  /** The ledger of the financials jobs, for the filings they skipped. */
  financialFilings?: Pick<FinancialFilingRepository, 'skipped'>;
  /** Sources whose job is not scheduled in this process, with the reason (from the configuration). */
  notScheduled?: Record<string, string>;
}

/** Sources whose jobs keep a ledger of filings (skipped ones are shown with their reasons). */
const FILING_SOURCES = ['prh-financials', 'bolagsverket-financials'] as const;

/** A latest run as health shows it (without its run id). */
const statusOf = ({ runId: _runId, ...status }: LatestRun): DataSourceStatus => status;

export function createCoverageService(deps: CoverageServiceDeps) {
  let cached: { table: CoverageTable; expiresAt: number } | undefined;

  return {
    /** The latest snapshot as a table, and for how many more seconds it may be cached. */
    async table(): Promise<{ table: CoverageTable; maxAgeSeconds: number }> {
      const now = deps.clock.now().getTime();
      if (!cached || cached.expiresAt <= now) {
        const snapshot = await deps.coverage.latest();
        const table: CoverageTable = {
          snapshotAt: snapshot?.takenAt ?? null,
          countries: [...new Set((snapshot?.cells ?? []).map((c) => c.country))],
          categories: [...COVERAGE_CATEGORIES],
          rows: snapshot?.cells ?? [],
        };
        // No snapshot yet (the start-up one is seconds away): do not keep that for an hour.
        if (!snapshot) return { table, maxAgeSeconds: 0 };
        cached = { table, expiresAt: now + COVERAGE_CACHE_MS };
      }
      return { table: cached.table, maxAgeSeconds: Math.max(0, Math.ceil((cached.expiresAt - now) / 1000)) };
    },

    /**
     * One entry per data source (health's dataSources): the latest run among the source's jobs,
     * and the latest success. Sub-sources recorded as `source:part` (a sanctions list) follow.
     */
    async dataSources(): Promise<Record<string, SourceStatus>> {
      const runs = await deps.syncRuns.latestBySource();
      const out: Record<string, SourceStatus> = {};
      for (const [source, jobs] of Object.entries(DATA_SOURCES)) {
        const mine = jobs.map((j) => runs[j]).filter((r): r is LatestRun => r !== undefined);
        if (!mine.length) {
          out[source] = { ...NEVER };
          continue;
        }
        // Later finish wins; within one millisecond, the later run.
        const latest = mine.reduce((a, b) =>
          b.lastSync > a.lastSync || (b.lastSync === a.lastSync && b.runId > a.runId) ? b : a,
        );
        const successes = mine
          .map((r) => r.lastSuccess)
          .filter((t): t is string => t !== null)
          .sort();
        out[source] = { ...statusOf(latest), lastSuccess: successes.at(-1) ?? null };
      }
      for (const [name, run] of Object.entries(runs)) {
        const [source] = name.split(':');
        if (name.includes(':') && source in DATA_SOURCES) out[name] = statusOf(run);
      }
      // A run of a per-part source (statistics:XX) that kept some parts' previous data.
      for (const [name, status] of Object.entries(out)) {
        if (!name.includes(':') || status.status !== 'ok') continue;
        const tables = degradedParts(await deps.syncRuns.getState(name));
        if (tables.length) out[name] = { ...status, status: 'degraded', tables };
      }
      if (deps.financialFilings) {
        const skipped = await deps.financialFilings.skipped(FILING_SOURCES);
        for (const [source, s] of Object.entries(skipped))
          if (out[source]) out[source] = { ...out[source], skipped: s };
      }
      for (const [source, reason] of Object.entries(deps.notScheduled ?? {}))
        if (out[source]) out[source] = { ...out[source], notScheduled: reason, message: out[source].message ?? reason };
      return out;
    },
  };
}

export type CoverageService = ReturnType<typeof createCoverageService>;
