// The nightly coverage snapshot: counts what the store holds per country and category, adds
// the share of companies covered and each category's freshness (last successful sync of its
// sources, their schedules), and saves it for GET /api/coverage. Reads only the store, so it
// is scheduled on every install (nothing is downloaded).
import type { CoverageCategory, CoverageCell, MeasuredCell } from '../store/ops/coverage.ts';
import { DATA_SOURCES } from '../domain/data-sources.ts';
import { defineJob, pick, type JobPorts } from './job.ts';

/** What the job uses. */
const coverageDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'coverage', 'syncRuns'),
  scheduleOf: p.scheduleOf,
});
type CoverageDeps = ReturnType<typeof coverageDeps>;

export const COVERAGE_COUNTRIES = ['NO', 'FI', 'SE', 'DK'] as const;
/** Snapshots kept: more than a year of nights. */
const KEEP = 400;

/** The health sources that fill each category for a country; absent = no source for it. */
const CELL_SOURCES: Record<string, Partial<Record<CoverageCategory, string[]>>> = {
  NO: {
    companies: ['brreg-updates', 'brreg-snapshot'],
    financials: ['regnskap'],
    roles: ['brreg-snapshot'],
    subUnits: ['brreg-updates', 'brreg-snapshot'],
    shareholders: ['shareholders'],
    licenses: ['licenses'],
    inspections: ['inspections'],
    domains: ['domains'],
    technologies: ['domains'],
    procurement: ['doffin', 'ted'],
  },
  FI: { companies: ['prh'], procurement: ['ted'] },
  SE: { companies: ['bolagsverket'], procurement: ['ted'] },
  DK: {
    companies: ['cvr'],
    roles: ['cvr'],
    subUnits: ['cvr'],
    shareholders: ['cvr'],
    financials: ['cvr-financials'],
    procurement: ['ted'],
  },
};

function sourcesOf(country: string, category: CoverageCategory): string[] {
  if (category === 'screeningLists') return ['sanctions'];
  return CELL_SOURCES[country]?.[category] ?? [];
}

export async function takeCoverageSnapshot(deps: CoverageDeps) {
  const measured = await deps.repos.coverage.measure(COVERAGE_COUNTRIES);
  const runs = await deps.repos.syncRuns.latestBySource();
  const companies = new Map(measured.filter((c) => c.category === 'companies').map((c) => [c.country, c.records]));
  const cell = (m: MeasuredCell): CoverageCell => {
    const sources = sourcesOf(m.country, m.category);
    const jobs = sources.flatMap((s) => DATA_SOURCES[s] ?? []);
    const successes = jobs
      .map((j) => runs[j]?.lastSuccess)
      .filter((t): t is string => typeof t === 'string')
      .sort();
    const total = companies.get(m.country) ?? 0;
    return {
      ...m,
      share: m.companiesWith === null || total === 0 ? null : Math.round((m.companiesWith / total) * 10_000) / 10_000,
      lastSync: successes.at(-1) ?? null,
      cadence: jobs.flatMap((job) => {
        const cron = deps.scheduleOf(job);
        return cron ? [{ job, cron }] : [];
      }),
      sources,
    };
  };
  const snapshot = await deps.repos.coverage.save(measured.map(cell));
  await deps.repos.coverage.prune(KEEP);
  return snapshot;
}

export const coverageJob = defineJob({
  name: 'coverage',
  deps: coverageDeps,
  description: 'Completeness snapshot per country and category (GET /api/coverage); reads the store only',
  schedule: '0 2 * * *', // nightly 02:00 UTC
  scheduled: async () => true,
  // A new install (or one upgraded to this version) has no table to serve until the first night.
  runAtStart: async (deps) => (await deps.repos.coverage.latest()) === undefined,
  vacuum: false,
  options: [],
  async run(deps, _opts, job) {
    const snapshot = await takeCoverageSnapshot(deps);
    job.progress(`coverage: ${snapshot.cells.length} cells measured`);
    return { recordsProcessed: snapshot.cells.length, details: { snapshotId: snapshot.id } };
  },
});
