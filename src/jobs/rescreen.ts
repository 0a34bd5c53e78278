// The re-screening that follows every sanctions/PEP list sync: the companies on any
// watchlist are screened against the lists as they now stand (services/rescreening.ts).
import type { Clock } from '../domain/clock.ts';
import type { Repositories } from '../store/repositories.ts';
import { createRescreeningService } from '../services/monitoring/rescreening.ts';
import { createScreeningService } from '../services/screening/screening.ts';
import type { JobRun } from './job.ts';

/** What the re-screening reads and writes. */
export interface RescreenDeps {
  repos: Pick<Repositories, 'screening' | 'companyReads' | 'shareholders' | 'cvrOwners' | 'screeningStates'>;
  clock: Clock;
}

export async function rescreenWatched({ repos, clock }: RescreenDeps, job: JobRun) {
  const screening = createScreeningService({
    sanctions: repos.screening,
    companyReads: repos.companyReads,
    shareholders: repos.shareholders,
    cvrOwners: repos.cvrOwners,
    clock,
  });
  const r = await createRescreeningService({ screening, screeningStates: repos.screeningStates }).rescreenWatched();
  job.progress(`re-screened ${r.screened} watched companies: ${r.changed} with a match found or cleared`);
  return r;
}
