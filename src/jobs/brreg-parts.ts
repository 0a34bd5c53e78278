// Roles and annual accounts for companies already in the store.
//   brreg-roles  roles of every unit: brreg's /roller/totalbestand (gzipped JSON array of
//                {organisasjonsnummer, rollegrupper}: the shape of one /enheter/{orgnr}/roller
//                answer plus its org number), or a --file of that shape
//   regnskap     accounts: a --file (JSON array of Regnskapsregisteret records), or a live
//                fetch for companies that filed a newer year than we hold (--limit, default 2000)
import pLimit from 'p-limit';
import { mapRegnskap, mapRoller } from '../sources/brreg/map.ts';
import type { BrregRegnskap, BrregRoller } from '../sources/brreg/types.ts';
import { readJsonArrayBatches } from '../sources/json-array.ts';
import { openSyncInput } from '../sources/sync-input.ts';
import { overlapped } from './brreg.ts';
import { defineJob, pick, type JobPorts } from './job.ts';

/** What the job uses. */
const brregPartsDeps = (p: JobPorts) => ({
  repos: pick(p.repos, 'companyReads', 'companyWrites'),
  upstreams: p.upstreams,
});

const BATCH = 1000;

export const brregRolesJob = defineJob({
  name: 'brreg-roles',
  deps: brregPartsDeps,
  description: 'Roles of all units (brreg roller/totalbestand)',
  options: ['file'],
  async run(deps, opts, job) {
    const { stream: input } = await openSyncInput(opts, { fallback: () => deps.upstreams.brreg.downloadRoles() });
    let processed = 0;
    let changed = 0;
    let unknown = 0;
    // The next batch is read and mapped while the previous one is written (overlapped, as brreg).
    const batches = readJsonArrayBatches<BrregRoller & { organisasjonsnummer?: string }>(input, 'roles dump', BATCH);
    await overlapped(batches, async (batch) => {
      const parts = batch
        .filter((r) => typeof r?.organisasjonsnummer === 'string')
        .map((r) => ({ orgNumber: r.organisasjonsnummer!, roles: mapRoller(r) }));
      const res = await deps.repos.companyWrites.writeParts('NO', parts);
      processed += batch.length;
      changed += res.changed;
      unknown += res.unknown;
      job.report(processed);
    });
    job.progress(`roles: ${processed} units read, ${changed} changed, ${unknown} not in the store`);
    return { recordsProcessed: processed, details: { changed, unknown } };
  },
});

export const regnskapJob = defineJob({
  name: 'regnskap',
  deps: brregPartsDeps,
  description: 'Annual accounts from Regnskapsregisteret',
  options: ['file', 'limit'],
  async run(deps, opts, job) {
    if (opts.file) {
      const { stream: input } = await openSyncInput({ file: opts.file });
      let processed = 0;
      let changed = 0;
      await overlapped(readJsonArrayBatches<BrregRegnskap>(input, 'accounts file', BATCH), async (batch) => {
        const byCompany = new Map<string, BrregRegnskap[]>();
        for (const r of batch) {
          const n = r?.virksomhet?.organisasjonsnummer;
          if (n) byCompany.set(n, [...(byCompany.get(n) ?? []), r]);
        }
        const res = await deps.repos.companyWrites.writeParts(
          'NO',
          [...byCompany].map(([orgNumber, list]) => ({ orgNumber, financials: mapRegnskap(list) })),
        );
        processed += batch.length;
        changed += res.changed;
        job.report(processed);
      });
      job.progress(`accounts: ${processed} records read, ${changed} companies changed`);
      return { recordsProcessed: processed, details: { changed } };
    }
    const due = await deps.repos.companyReads.companiesDueForAccounts(opts.limit ?? 2000);
    const slot = pLimit(10);
    let done = 0;
    let changed = 0;
    for (let i = 0; i < due.length; i += 100) {
      const chunk = due.slice(i, i + 100);
      const parts = await Promise.all(
        chunk.map((n) =>
          slot(async () => ({ orgNumber: n, financials: mapRegnskap(await deps.upstreams.brreg.getRegnskap(n)) })),
        ),
      );
      changed += (await deps.repos.companyWrites.writeParts('NO', parts)).changed;
      done += chunk.length;
      job.report(done);
    }
    job.progress(`accounts: ${done} companies fetched, ${changed} changed`);
    return { recordsProcessed: done, details: { changed } };
  },
});
