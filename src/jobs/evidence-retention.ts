// evidence-retention: deletes evidence packs whose retention (EVIDENCE_RETENTION_DAYS, default
// 3650 days: the ten-year AML record-keeping horizon) has ended, and screening audit records
// older than the same horizon, in bounded batches, nightly. Nothing else ever deletes or changes
// a pack.
import { defineJob, pick, type JobPorts } from './job.ts';

const evidenceRetentionDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'evidence', 'screeningAudit'),
  config: pick(p.config, 'evidence'),
  clock: p.clock,
});

const BATCH = 1000;
const MAX_BATCHES = 200;

export const evidenceRetentionJob = defineJob({
  name: 'evidence-retention',
  deps: evidenceRetentionDeps,
  description:
    'Deletes evidence packs past EVIDENCE_RETENTION_DAYS and screening audit records as old; reads the store only',
  schedule: '45 2 * * *', // nightly 02:45 UTC
  scheduled: async () => true,
  vacuum: false,
  options: [],
  async run(deps, _opts, job) {
    const now = deps.clock.now();
    const cutoff = new Date(now.getTime() - deps.config.evidence.retentionDays * 86_400_000);
    let packs = 0;
    let audits = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const n = await deps.repos.evidence.purgeExpired(now, BATCH);
      packs += n;
      job.report(packs + audits);
      if (n < BATCH) break;
    }
    for (let i = 0; i < MAX_BATCHES; i++) {
      const n = await deps.repos.screeningAudit.purgeBefore(cutoff, BATCH);
      audits += n;
      job.report(packs + audits);
      if (n < BATCH) break;
    }
    job.progress(
      `evidence-retention: ${packs} packs past their retention and ${audits} audit records before ${cutoff.toISOString()} removed`,
    );
    return { recordsProcessed: packs + audits, details: { packs, audits, cutoff: cutoff.toISOString() } };
  },
});
