// The demo dataset (DEMO_DATA=auto, an empty store): the demo world of src/sources/demo/ written in
// each upstream's own format and loaded through the same sync jobs as real files — brreg's
// dumps, the accounts, Aksjonærregisteret for 2023 and 2024, PRH, Bolagsverket, CVR, an FtM
// sanctions/PEP list, Doffin notices, inspections and licences — then a second round of brreg's
// dumps (a new CEO, moved addresses, bankruptcies, deleted units), so the event stream and the
// change feed hold real changes. Statistics figures for the demo municipalities are written
// through the statistics repository (the job fetches from the bureaus' APIs only).
import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { brregRound } from '../sources/demo/brreg.ts';
import { cvrNdjson } from '../sources/demo/denmark.ts';
import { prhJson } from '../sources/demo/finland.ts';
import { bolagsverketText } from '../sources/demo/sweden.ts';
import { procurementNotices } from '../sources/demo/procurement.ts';
import { sanctionsFtm } from '../sources/demo/screening.ts';
import { demoCrawler, demoWebsites } from '../sources/demo/websites.ts';
import { processCompany } from '../sources/web-crawler/pipeline.ts';
import { seedCandidates } from '../sources/web-crawler/seed.ts';
import { shareholderCsv } from '../sources/demo/shareholders.ts';
import { demoStatistics } from '../sources/demo/statistics.ts';
import { buildDemoWorld, DEMO_NO_COMPANIES, DEMO_SEED, type DemoWorld } from '../sources/demo/world.ts';
import { generateInspectionsCsv } from '../sources/mattilsynet/generate.ts';
import { generateLicensesCsv } from '../sources/tbr/generate.ts';
import type { JobOptions, JobPorts, Progress } from './job.ts';
import { runJob } from './runner.ts';

export const DEMO_COMPANIES = DEMO_NO_COMPANIES;

async function writeBrreg(dir: string, world: DemoWorld, round: 1 | 2) {
  const files = brregRound(world, round, DEMO_SEED);
  const out = {
    enheter: path.join(dir, `enheter-${round}.json.gz`),
    underenheter: path.join(dir, `underenheter-${round}.json.gz`),
    roller: path.join(dir, `roller-totalbestand-${round}.json.gz`),
    regnskap: path.join(dir, `regnskap-${round}.json.gz`),
  };
  for (const key of Object.keys(out) as (keyof typeof out)[])
    await writeFile(out[key], gzipSync(JSON.stringify(files[key]), { level: 1 }));
  return out;
}

/**
 * One job run of the demo, VACUUM (ANALYZE) left to the end of the load: into an empty store,
 * each whole-database VACUUM cost more than most of the loads it followed.
 */
const run = (ctx: JobPorts, name: string, opts: JobOptions, progress: Progress) =>
  runJob(ctx, name, opts, progress, { vacuum: false });

/** One step of the demo load and its wall time. */
export interface DemoStep {
  step: string;
  seconds: number;
}

export interface DemoLoad {
  seconds: number;
  steps: DemoStep[];
}

/**
 * Loads the demo through the jobs themselves, so it takes the ports the runner hands them. Each
 * step is timed (logged as it ends and returned), so a slow load says where its time went.
 */
export async function loadDemoData(ctx: JobPorts, progress: Progress, count = DEMO_COMPANIES): Promise<DemoLoad> {
  const t0 = performance.now();
  const steps: DemoStep[] = [];
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const out = await work();
    const seconds = Math.round(performance.now() - start) / 1000;
    steps.push({ step: name, seconds });
    progress(`demo: ${name} took ${seconds.toFixed(1)} s`);
    return out;
  };
  const dir = path.join(ctx.config.dataDir, 'demo-files');
  await mkdir(path.join(dir, 'doffin'), { recursive: true });
  const world = await step('world', async () => buildDemoWorld(count, DEMO_SEED));
  const file = async (name: string, text: string) => {
    const f = path.join(dir, name);
    await writeFile(f, text);
    return f;
  };
  try {
    const first = await step('brreg files 1', () => writeBrreg(dir, world, 1));
    await step('brreg 1', () => run(ctx, 'brreg', { file: first.enheter, follow: false }, progress));
    await step('brreg-subunits', () => run(ctx, 'brreg-subunits', { file: first.underenheter }, progress));
    await step('brreg-roles 1', () => run(ctx, 'brreg-roles', { file: first.roller }, progress));
    await step('regnskap', () => run(ctx, 'regnskap', { file: first.regnskap }, progress));
    await step('prh', async () =>
      run(ctx, 'prh', { file: await file('prh-all-companies.json', prhJson(DEMO_SEED)) }, progress),
    );
    await step('bolagsverket', async () =>
      run(ctx, 'bolagsverket', { file: await file('bolagsverket_bulkfil.txt', bolagsverketText(DEMO_SEED)) }, progress),
    );
    await step('cvr', async () =>
      run(ctx, 'cvr', { file: await file('cvr-virksomheder.ndjson', cvrNdjson(DEMO_SEED)) }, progress),
    );
    for (const year of [2023, 2024] as const)
      await step(`shareholders ${year}`, async () =>
        run(
          ctx,
          'shareholders',
          { file: await file(`aksjeeierbok_${year}.csv`, shareholderCsv(world, year, DEMO_SEED)), year },
          progress,
        ),
      );
    await loadDemoLicensesAndInspections(ctx, dir, progress, step);
    await step('sanctions', async () =>
      run(
        ctx,
        'sanctions',
        { file: await file('demo-sanctions.ftm.json', sanctionsFtm(world)), list: 'demo' },
        progress,
      ),
    );
    await step('procurement', async () => {
      for (const n of procurementNotices(world)) await writeFile(path.join(dir, 'doffin', `${n.doffinId}.xml`), n.xml);
      return run(ctx, 'procurement', { file: path.join(dir, 'doffin') }, progress);
    });
    await step('statistics', async () => {
      for (const s of demoStatistics(world, ctx.clock.now()))
        await ctx.repos.statistics.replaceCountry(s.country, s.data);
      progress('statistics: demo figures for the demo municipalities and industries');
    });
    // The second round: what changed in the registry since the first load becomes events.
    const second = await step('brreg files 2', () => writeBrreg(dir, world, 2));
    await step('brreg 2', () => run(ctx, 'brreg', { file: second.enheter, follow: false }, progress));
    await step('brreg-roles 2', () => run(ctx, 'brreg-roles', { file: second.roller }, progress));
    await step('web profiles', () => loadDemoWebProfiles(ctx, world, progress));
    await step('vacuum', () => ctx.repos.syncRuns.vacuumAnalyze());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const seconds = Math.round(performance.now() - t0) / 1000;
  progress(`demo: loaded in ${seconds.toFixed(1)} s`);
  return { seconds, steps };
}

/**
 * Web profiles for the demo companies that have a demo homepage, through the pipeline's own
 * stages: candidates for every company (stage 1, as the `domains` job seeds them), then probes,
 * scoring, technologies and social handles for those companies, with the demo web as the
 * crawler. Not as a `domains` run: a run recorded without a file counts as synced from the
 * network, and the scheduler would then crawl the real web for the demo's invented names. The
 * other companies keep their candidates, unprobed (pending), as after a partial first crawl.
 */
async function loadDemoWebProfiles(ctx: JobPorts, world: DemoWorld, progress: Progress): Promise<void> {
  const repo = ctx.repos.webProfile;
  const seed = await seedCandidates(repo);
  const sites = demoWebsites(world);
  const crawler = demoCrawler(sites);
  const wanted = new Set(sites.map((s) => s.orgNumber));
  const due = (await repo.due(seed.seen)).filter((row) => wanted.has(row.orgNumber));
  const counts = { confirmed: 0, ambiguous: 0, rejected: 0 };
  for (const row of due) counts[(await processCompany(repo, crawler, ctx.clock, row)).status]++;
  progress(
    `web profiles: ${seed.seeded} companies given candidates, ${due.length} probed on the demo web ` +
      `(${counts.confirmed} confirmed, ${counts.ambiguous} ambiguous, ${counts.rejected} rejected)`,
  );
}

/**
 * Inspections for the demo's food businesses (restaurants, cafés, hotels, food production and
 * shops) and licences for those that serve or sell alcohol or tobacco, in the upstream formats
 * and through the same sync jobs as real files.
 */
async function loadDemoLicensesAndInspections(
  ctx: JobPorts,
  dir: string,
  progress: Progress,
  step: <T>(name: string, work: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const pick = (prefixes: string[]) => ctx.repos.demoData.companiesInIndustries(prefixes);
  const write = async (name: string, data: Readable) => {
    const file = path.join(dir, name);
    await pipeline(data, createWriteStream(file));
    return file;
  };
  // 55 accommodation, 56 food service, 10 food and 11 drink production, 47.1/47.2 food shops.
  await step('inspections', async () => {
    const food = await pick(['55', '56', '10', '11', '47.1', '47.2']);
    const csv = generateInspectionsCsv({ venues: food, seed: DEMO_SEED });
    return run(ctx, 'inspections', { file: await write('smilefjes-tilsyn.csv', csv) }, progress);
  });
  // Serving (55, 56), drink production and wholesale (11, 46.3), shops selling beer or tobacco (47.1/47.2).
  await step('licenses', async () => {
    const licensed = await pick(['55', '56', '11', '46.3', '47.1', '47.2']);
    const csv = generateLicensesCsv({ companies: licensed, seed: DEMO_SEED });
    return run(ctx, 'licenses', { file: await write('licenses.csv', csv) }, progress);
  });
}
