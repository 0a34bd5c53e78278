// `ncd sync domains [--limit N]`: the web-profile pipeline (company websites, technologies, social
// handles) over Norwegian companies. The job keeps its public name `domains`.
// Stage 1 (candidates) runs for every company not seeded yet or changed since; the network
// stages then run for at most --limit companies, those with an unfinished pass first, then
// those never completed, then the oldest completed (stages in jobs/web-profile/, README
// "Domain enrichment").
import pLimit from 'p-limit';
import { createCrawler } from '../sources/web-crawler/crawler.ts';
import { processCompany } from '../sources/web-crawler/pipeline.ts';
import { seedCandidates } from '../sources/web-crawler/seed.ts';
import { defineJob, pick, type JobPorts } from './job.ts';

/** What the job uses. */
const webProfileDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'webProfile'),
  config: pick(p.config, 'baseUrl', 'webProfile'),
  clock: p.clock,
  log: p.log,
  resolver: p.resolver,
  crawlerNet: p.crawlerNet,
});

const DEFAULT_LIMIT = 2000;
/** robots.txt groups for us start `User-agent: ncd-enrichment` (published crawler name, kept). */
export const CRAWLER_AGENT = 'ncd-enrichment';

export const domainsJob = defineJob({
  name: 'domains',
  deps: webProfileDeps,
  description: 'Domain enrichment (NO): candidate domains, DNS/HTTP probes, scoring, technologies and social handles',
  schedule: '0 1 * * 1-6', // daily chunks Monday–Saturday, 01:00 UTC
  options: ['limit'],
  async run(deps, opts, job) {
    const repo = deps.repos.webProfile;
    const { concurrency, hostDelayMs, timeoutMs } = deps.config.webProfile;
    const seed = await seedCandidates(repo, (seen) => job.progress(`candidates: ${seen} companies read`));
    job.progress(`candidates: ${seed.seeded} companies (re)seeded of ${seed.seen} read, ${seed.pruned} gone`);

    const due = await repo.due(opts.limit ?? DEFAULT_LIMIT);
    const crawler = createCrawler({
      resolver: deps.resolver,
      allowedAddresses: deps.crawlerNet.allowedAddresses,
      dial: deps.crawlerNet.dial,
      concurrency,
      hostDelayMs,
      timeoutMs,
      userAgent: `${CRAWLER_AGENT}/1.0 (+${deps.config.baseUrl})`,
    });
    const counts = { confirmed: 0, ambiguous: 0, rejected: 0, failed: 0, companiesChanged: 0 };
    let done = 0;
    // As many companies in flight as requests allowed; the crawler enforces the request cap.
    const slot = pLimit(concurrency);
    await Promise.all(
      due.map((row) =>
        slot(async () => {
          try {
            const outcome = await processCompany(repo, crawler, deps.clock, row);
            counts[outcome.status]++;
            if (outcome.companyChanged) counts.companiesChanged++;
          } catch (err) {
            // One company's failure (a database hiccup) must not cost the rest of the batch.
            counts.failed++;
            deps.log.warn(
              { orgNumber: row.orgNumber, err: (err as Error).message },
              'domain enrichment failed for a company',
            );
          }
          job.report(++done);
        }),
      ),
    );
    if (due.length > 0 && counts.failed === due.length)
      throw new Error(`domain enrichment failed for all ${due.length} companies`);
    job.progress(
      `domains: ${done} companies processed (${counts.confirmed} confirmed, ${counts.ambiguous} ambiguous, ${counts.rejected} rejected, ` +
        `${counts.failed} failed), ${counts.companiesChanged} company records changed, ${crawler.requests} requests`,
    );
    return { recordsProcessed: done, details: { ...counts, seeded: seed.seeded, requests: crawler.requests } };
  },
});
