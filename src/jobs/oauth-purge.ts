// oauth-purge: deletes expired authorization codes and OAuth tokens, and grants nothing can use
// any more (no token left), in bounded batches, hourly. Without it both tables grew with every
// sign-in and every refresh. A used code or refresh token is kept until it expires, so a reuse
// within its lifetime is still recognised (and revokes its grant).
import { defineJob, pick, type JobPorts } from './job.ts';

const oauthPurgeDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'oauth'),
  clock: p.clock,
});

const BATCH = 5000;
/** Batches per run: a backlog is worked off over several runs rather than in one long one. */
const MAX_BATCHES = 100;

export const oauthPurgeJob = defineJob({
  name: 'oauth-purge',
  deps: oauthPurgeDeps,
  description: 'Deletes expired OAuth codes and tokens and their dead grants in bounded batches; reads the store only',
  schedule: '17 * * * *', // hourly
  scheduled: async () => true,
  vacuum: false,
  options: [],
  async run(deps, _opts, job) {
    const now = deps.clock.now();
    const removed = { codes: 0, tokens: 0, grants: 0 };
    for (let i = 0; i < MAX_BATCHES; i++) {
      const n = await deps.repos.oauth.purgeExpired(now, BATCH);
      removed.codes += n.codes;
      removed.tokens += n.tokens;
      removed.grants += n.grants;
      job.report(removed.codes + removed.tokens + removed.grants);
      if (n.codes < BATCH && n.tokens < BATCH && n.grants < BATCH) break;
    }
    job.progress(`oauth-purge: ${removed.codes} codes, ${removed.tokens} tokens, ${removed.grants} grants removed`);
    return { recordsProcessed: removed.codes + removed.tokens + removed.grants, details: removed };
  },
});
