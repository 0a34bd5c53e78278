// Every sync job, in one list: the runner, the scheduler, `ncd sync` and `ncd jobs` read it.
// A new job is added here; nothing registers itself by being imported.
import { bolagsverketJob } from './bolagsverket.ts';
import { bolagsverketFinancialsJob } from './bolagsverket-financials.ts';
import { brregRolesJob, regnskapJob } from './brreg-parts.ts';
import { brregUpdatesJob } from './brreg-updates.ts';
import { brregJob, brregSubunitsJob } from './brreg.ts';
import { coverageJob } from './coverage.ts';
import { cvrFinancialsJob } from './cvr-financials.ts';
import { cvrJob, cvrUpdatesJob } from './cvr.ts';
import { eventRetentionJob } from './event-retention.ts';
import { evidenceRetentionJob } from './evidence-retention.ts';
import { inspectionsJob } from './inspections.ts';
import type { AnyJob } from './job.ts';
import { licensesJob } from './licenses.ts';
import { oauthPurgeJob } from './oauth-purge.ts';
import { prhFinancialsJob } from './prh-financials.ts';
import { prhJob, prhUpdatesJob } from './prh.ts';
import { procurementJob } from './procurement.ts';
import { sanctionsJob } from './sanctions.ts';
import { groupsJob, shareholdersJob } from './shareholders.ts';
import { statisticsJob } from './statistics.ts';
import { domainsJob } from './web-profile.ts';

export const JOBS: readonly AnyJob[] = [
  brregJob,
  brregSubunitsJob,
  brregUpdatesJob,
  brregRolesJob,
  regnskapJob,
  prhJob,
  prhUpdatesJob,
  prhFinancialsJob,
  bolagsverketJob,
  bolagsverketFinancialsJob,
  cvrJob,
  cvrUpdatesJob,
  cvrFinancialsJob,
  domainsJob,
  shareholdersJob,
  groupsJob,
  inspectionsJob,
  licensesJob,
  sanctionsJob,
  coverageJob,
  statisticsJob,
  procurementJob,
  eventRetentionJob,
  evidenceRetentionJob,
  oauthPurgeJob,
];

const BY_NAME = new Map(JOBS.map((job) => [job.name, job]));

export function findJob(name: string): AnyJob | undefined {
  return BY_NAME.get(name);
}
