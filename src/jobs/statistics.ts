// `ncd sync statistics [--country NO|SE|FI|DK]`: the market-context figures of the national
// statistics bureaus (SSB, SCB, Statistics Finland, Statistics Denmark), monthly. Each bureau is
// its own sync run (`statistics:<country>`, health's dataSources): all its tables are fetched
// and read first, then its stored figures are replaced in one transaction. A table that answers
// an error, or a document that is not valid JSON-stat, keeps that table's previous figures while
// the bureau's other tables are replaced (the run is ok, its message names the failed tables); a
// bureau whose every table failed fails alone and keeps all its figures; the job fails when
// every bureau asked for failed. The failed tables of an ok run, with what went wrong, are kept in
// the source's sync state (`degraded`), where health reads them. A table the evidence could not
// confirm whose metadata does not fit is no failure: its measure is stored as unavailable, with
// the reason, and its old figures go.
import { BUREAUS, fetchBureau, STAT_COUNTRIES, type StatCountry } from '../sources/statistics/index.ts';
import { defineJob, pick, type JobPorts, shortReason } from './job.ts';

/** What the job uses. */
const statisticsDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'statistics', 'syncRuns'),
  config: pick(p.config, 'statistics'),
  clock: p.clock,
});
type StatisticsDeps = ReturnType<typeof statisticsDeps>;

export const STATISTICS_JOB = 'statistics';

export class StatisticsOptionError extends Error {}

function countriesOf(country: string | undefined): StatCountry[] {
  if (country === undefined) return [...STAT_COUNTRIES];
  const c = country.toUpperCase();
  if (!(STAT_COUNTRIES as readonly string[]).includes(c))
    throw new StatisticsOptionError(`--country must be one of ${STAT_COUNTRIES.join(', ')} (got ${country})`);
  return [c as StatCountry];
}

async function syncBureau(
  deps: StatisticsDeps,
  country: StatCountry,
): Promise<{ figures: number; failedTables: string[]; unavailable: string[] }> {
  const bureau = BUREAUS[country];
  const source = `${STATISTICS_JOB}:${country}`;
  await deps.repos.syncRuns.markInterrupted(source);
  const run = await deps.repos.syncRuns.start(source, 'upstream');
  try {
    const data = await fetchBureau(bureau, deps.config.statistics[country]);
    await deps.repos.statistics.replaceCountry(country, {
      source: bureau.name,
      licence: bureau.licence,
      fetchedAt: deps.clock.now(),
      figures: data.figures,
      tables: data.tables,
      keep: data.failedTables,
      unavailable: data.unavailable,
    });
    // A run with failed tables still succeeded for the rest; the message names what was kept.
    const partial = data.failedTables.length
      ? `${data.failedTables.length} of ${bureau.tables.length} tables failed, their previous figures kept: ` +
        data.failedTables.map((t) => t.reason).join('; ')
      : null;
    await deps.repos.syncRuns.finish(
      run,
      'ok',
      data.figures.length,
      partial === null ? null : shortReason(new Error(partial)),
    );
    // Health shows the bureau `degraded` with these tables while they are not empty.
    await deps.repos.syncRuns.setState(source, {
      degraded: data.failedTables.map((t) => ({ table: t.table, problem: t.reason })),
    });
    return {
      figures: data.figures.length,
      failedTables: data.failedTables.map((t) => t.table),
      unavailable: data.unavailable.map((t) => t.reason),
    };
  } catch (err) {
    await deps.repos.syncRuns.finish(run, 'error', 0, shortReason(err));
    throw err;
  }
}

export const statisticsJob = defineJob({
  name: 'statistics',
  deps: statisticsDeps,
  description: 'Market context from SSB, SCB, Statistics Finland and Statistics Denmark (--country XX: one bureau)',
  schedule: '0 5 3 * *', // monthly, the 3rd at 05:00 UTC
  options: ['country'],
  vacuum: false,
  async run(deps, opts, job) {
    const countries = countriesOf(opts.country);
    const stored: Record<string, number> = {};
    const failed: Record<string, string> = {};
    const failedTables: Record<string, string[]> = {};
    const unavailable: Record<string, string[]> = {};
    for (const country of countries) {
      try {
        const outcome = await syncBureau(deps, country);
        stored[country] = outcome.figures;
        if (outcome.failedTables.length) failedTables[country] = outcome.failedTables;
        if (outcome.unavailable.length) unavailable[country] = outcome.unavailable;
        job.progress(
          `statistics ${country}: ${outcome.figures} figures from ${BUREAUS[country].name}` +
            (outcome.failedTables.length ? ` (failed, previous figures kept: ${outcome.failedTables.join(', ')})` : ''),
        );
      } catch (err) {
        failed[country] = shortReason(err);
        job.progress(`statistics ${country}: failed (${failed[country]}); previous figures kept`);
      }
    }
    if (Object.keys(stored).length === 0)
      throw new Error(
        `statistics: every bureau failed (${Object.entries(failed)
          .map(([c, m]) => `${c}: ${m}`)
          .join('; ')})`,
      );
    const total = Object.values(stored).reduce((a, b) => a + b, 0);
    return { recordsProcessed: total, details: { stored, failed, failedTables, unavailable } };
  },
});
