// The demo dataset: a few thousand generated Norwegian companies in brreg's real file formats,
// loaded into an empty store through the same sync jobs as real data (DEMO_DATA=auto).
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { writeDumpFiles } from '../sources/brreg/dump-files.ts';
import { generateInspectionsCsv } from '../sources/mattilsynet/generate.ts';
import { generateLicensesCsv } from '../sources/tbr/generate.ts';
import type { JobPorts, Progress } from './job.ts';
import { runJob } from './runner.ts';

export const DEMO_COMPANIES = 3000;
const DEMO_SEED = 2024;

/** Loads the demo through the jobs themselves, so it takes the ports the runner hands them. */
export async function loadDemoData(ctx: JobPorts, progress: Progress, count = DEMO_COMPANIES): Promise<void> {
  const dir = path.join(ctx.config.dataDir, 'demo-files');
  const files = await writeDumpFiles(dir, count, DEMO_SEED);
  try {
    await runJob(ctx, 'brreg', { file: files.enheter, follow: false }, progress);
    await runJob(ctx, 'brreg-subunits', { file: files.underenheter }, progress);
    await runJob(ctx, 'brreg-roles', { file: files.roller }, progress);
    await runJob(ctx, 'regnskap', { file: files.regnskap }, progress);
    await loadDemoLicensesAndInspections(ctx, dir, progress);
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
