// event-retention: removes events older than EVENT_RETENTION_DAYS (default 400) in
// bounded batches (each its own short transaction, read by the seq index), nightly. A reader
// asking for a seq below what was removed gets 410 events_expired with where to resume.
import { defineJob, pick, type JobPorts } from './job.ts';

/** What the job uses. */
const eventRetentionDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'eventLog'),
  config: pick(p.config, 'monitoring'),
  clock: p.clock,
});

const BATCH = 5000;
/** Batches per run: a backlog is worked off over several nights rather than in one long run. */
const MAX_BATCHES = 200;

export const eventRetentionJob = defineJob({
  name: 'event-retention',
  deps: eventRetentionDeps,
  description: 'Prunes company events older than EVENT_RETENTION_DAYS in bounded batches; reads the store only',
  schedule: '30 2 * * *', // nightly 02:30 UTC
  scheduled: async () => true,
  vacuum: false,
  options: [],
  async run(deps, _opts, job) {
    const cutoff = new Date(deps.clock.now().getTime() - deps.config.monitoring.retentionDays * 86_400_000);
    let removed = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const n = await deps.repos.eventLog.prune(cutoff, BATCH);
      removed += n;
      job.report(removed);
      if (n < BATCH) break;
    }
    job.progress(`event-retention: ${removed} events older than ${cutoff.toISOString()} removed`);
    return { recordsProcessed: removed, details: { cutoff: cutoff.toISOString() } };
  },
});
