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
import { shareholderCsv } from '../sources/demo/shareholders.ts';
import { demoStatistics } from '../sources/demo/statistics.ts';
import { buildDemoWorld, DEMO_NO_COMPANIES, DEMO_SEED, type DemoWorld } from '../sources/demo/world.ts';
import { generateInspectionsCsv } from '../sources/mattilsynet/generate.ts';
import { generateLicensesCsv } from '../sources/tbr/generate.ts';
import type { JobPorts, Progress } from './job.ts';
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

/** Loads the demo through the jobs themselves, so it takes the ports the runner hands them. */
export async function loadDemoData(ctx: JobPorts, progress: Progress, count = DEMO_COMPANIES): Promise<void> {
  const dir = path.join(ctx.config.dataDir, 'demo-files');
  await mkdir(path.join(dir, 'doffin'), { recursive: true });
  const world = buildDemoWorld(count, DEMO_SEED);
  const file = async (name: string, text: string) => {
    const f = path.join(dir, name);
    await writeFile(f, text);
    return f;
  };
  try {
    const first = await writeBrreg(dir, world, 1);
    await runJob(ctx, 'brreg', { file: first.enheter, follow: false }, progress);
    await runJob(ctx, 'brreg-subunits', { file: first.underenheter }, progress);
    await runJob(ctx, 'brreg-roles', { file: first.roller }, progress);
    await runJob(ctx, 'regnskap', { file: first.regnskap }, progress);
    await runJob(ctx, 'prh', { file: await file('prh-all-companies.json', prhJson(DEMO_SEED)) }, progress);
    await runJob(
      ctx,
      'bolagsverket',
      { file: await file('bolagsverket_bulkfil.txt', bolagsverketText(DEMO_SEED)) },
      progress,
    );
    await runJob(ctx, 'cvr', { file: await file('cvr-virksomheder.ndjson', cvrNdjson(DEMO_SEED)) }, progress);
    for (const year of [2023, 2024] as const)
      await runJob(
        ctx,
        'shareholders',
        { file: await file(`aksjeeierbok_${year}.csv`, shareholderCsv(world, year, DEMO_SEED)), year },
        progress,
      );
    await loadDemoLicensesAndInspections(ctx, dir, progress);
    await runJob(
      ctx,
      'sanctions',
      { file: await file('demo-sanctions.ftm.json', sanctionsFtm(world)), list: 'demo' },
      progress,
    );
    for (const n of procurementNotices(world)) await writeFile(path.join(dir, 'doffin', `${n.doffinId}.xml`), n.xml);
    await runJob(ctx, 'procurement', { file: path.join(dir, 'doffin') }, progress);
    for (const s of demoStatistics(world, ctx.clock.now()))
      await ctx.repos.statistics.replaceCountry(s.country, s.data);
    progress('statistics: demo figures for the demo municipalities and industries');
    // The second round: what changed in the registry since the first load becomes events.
    const second = await writeBrreg(dir, world, 2);
    await runJob(ctx, 'brreg', { file: second.enheter, follow: false }, progress);
    await runJob(ctx, 'brreg-roles', { file: second.roller }, progress);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Inspections for the demo's food businesses (restaurants, cafés, hotels, food production and
 * shops) and licences for those that serve or sell alcohol or tobacco, in the upstream formats
 * and through the same sync jobs as real files.
 */
async function loadDemoLicensesAndInspections(ctx: JobPorts, dir: string, progress: Progress): Promise<void> {
  const pick = (prefixes: string[]) => ctx.repos.demoData.companiesInIndustries(prefixes);
  const write = async (name: string, data: Readable) => {
    const file = path.join(dir, name);
    await pipeline(data, createWriteStream(file));
    return file;
  };
  // 55 accommodation, 56 food service, 10 food and 11 drink production, 47.1/47.2 food shops.
  const food = await pick(['55', '56', '10', '11', '47.1', '47.2']);
  await runJob(
    ctx,
    'inspections',
    { file: await write('smilefjes-tilsyn.csv', generateInspectionsCsv({ venues: food, seed: DEMO_SEED })) },
    progress,
  );
  // Serving (55, 56), drink production and wholesale (11, 46.3), shops selling beer or tobacco (47.1/47.2).
  const licensed = await pick(['55', '56', '11', '46.3', '47.1', '47.2']);
  await runJob(
    ctx,
    'licenses',
    { file: await write('licenses.csv', generateLicensesCsv({ companies: licensed, seed: DEMO_SEED })) },
    progress,
  );
}
