// The re-screening that follows every sanctions/PEP list sync: the companies on any
// watchlist are screened against the lists as they now stand (services/rescreening.ts).
import type { AppContext } from '../runtime/context.ts';
import { createRescreeningService } from '../services/monitoring/rescreening.ts';
import { createScreeningService } from '../services/screening/screening.ts';
import type { JobRun } from './registry.ts';

export async function rescreenWatched(ctx: AppContext, job: JobRun) {
  const { repos, clock } = ctx;
  const screening = createScreeningService({
    sanctions: repos.sanctions,
    companyReads: repos.companyReads,
    shareholders: repos.shareholders,
    cvrOwners: repos.cvrOwners,
    clock,
  });
  const r = await createRescreeningService({ screening, screeningStates: repos.screeningStates }).rescreenWatched();
  job.progress(`re-screened ${r.screened} watched companies: ${r.changed} with a match found or cleared`);
  return r;
}
