// Builds the full Nordic store as an operator would: each country's generated file in its
// upstream's real format, loaded through that country's own sync job with --file (brreg's dumps
// for Norway, PRH's all_companies ZIP, Bolagsverket's bulk-file ZIP, CVR NDJSON). Then the size
// on disk of the big tables and, per country, PostgreSQL's own COPY of the same company rows as
// the baseline the end-to-end rate is compared with.
//   node --import tsx bench/load-nordic.ts [--scale 1] [--countries NO,SE,FI,DK] [--seed 1] [--generate-only]
//     [--out nordic-load.json]
// Target: DATABASE_URL (PostgreSQL, an empty database). Files are cached in bench/.data/.
import { existsSync, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import yazl from 'yazl';
import { loadConfig } from '../src/config/index.ts';
import { runJob } from '../src/jobs/runner.ts';
import { createLogger } from '../src/logger.ts';
import { buildContext, closeContext } from '../src/runtime/build-context.ts';
import { generateBolagsverketText } from '../src/sources/bolagsverket/generate.ts';
import { writeDumpFiles } from '../src/sources/brreg/dump-files.ts';
import { generateCvrNdjson } from '../src/sources/cvr/generate.ts';
import { generatePrhJsonArray } from '../src/sources/prh/generate.ts';
import { machine, ROOT } from './proc.ts';

type Country = 'NO' | 'SE' | 'FI' | 'DK';

/** Companies in each register (issue 54): Norway's brreg, Sweden's, Finland's and Denmark's. */
const REAL_SIZE: Record<Country, number> = { NO: 1_160_000, SE: 2_800_000, FI: 460_000, DK: 2_200_000 };

interface Source {
  /** Generator input for `companies` stored companies: some generated rows are not stored. */
  count(companies: number): number;
  /** Writes the files into `dir` (a fresh directory) and names the jobs that read them. */
  write(dir: string, count: number, seed: number): Promise<void>;
  jobs: readonly (readonly [job: string, file: string])[];
}

async function zipOf(file: string, entry: string, data: Readable): Promise<void> {
  const zip = new yazl.ZipFile();
  // Level 1: the generated text compresses well at any level; time is what a rerun waits for.
  zip.addReadStream(data, entry, { compressionLevel: 1 });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

const SOURCES: Record<Country, Source> = {
  NO: {
    // The dumps leave out the ~1 % of generated companies that are deleted (dump-files.ts).
    count: (n) => Math.round(n / 0.99),
    write: async (dir, count, seed) => {
      await writeDumpFiles(dir, count, seed);
    },
    jobs: [
      ['brreg', 'enheter.json.gz'],
      ['brreg-subunits', 'underenheter.json.gz'],
      ['brreg-roles', 'roller-totalbestand.json.gz'],
    ],
  },
  SE: {
    // Sole traders (one row in 10) are skipped and one row in 100 repeats a number (generate.ts).
    count: (n) => Math.round(n / 0.89),
    write: (dir, count, seed) =>
      zipOf(
        path.join(dir, 'bolagsverket_bulkfil.zip'),
        'bolagsverket_bulkfil.txt',
        generateBolagsverketText(count, seed),
      ),
    jobs: [['bolagsverket', 'bolagsverket_bulkfil.zip']],
  },
  FI: {
    count: (n) => n,
    write: (dir, count, seed) =>
      zipOf(path.join(dir, 'all_companies.zip'), 'all_companies.json', generatePrhJsonArray(count, seed)),
    jobs: [['prh', 'all_companies.zip']],
  },
  DK: {
    count: (n) => n,
    write: (dir, count, seed) =>
      pipeline(
        generateCvrNdjson(count, seed),
        createGzip({ level: 1 }),
        createWriteStream(path.join(dir, 'virksomheder.ndjson.gz')),
      ),
    jobs: [['cvr', 'virksomheder.ndjson.gz']],
  },
};
const DIR_PREFIX: Record<Country, string> = { NO: 'brreg', SE: 'bolagsverket', FI: 'prh', DK: 'cvr' };

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    countries: { type: 'string', default: 'NO,SE,FI,DK' },
    seed: { type: 'string', default: '1' },
    // Write the countries' files into bench/.data and stop (e.g. at low priority beside another run).
    'generate-only': { type: 'boolean', default: false },
    // The result file under bench/results (two loads into one database at once need two).
    out: { type: 'string', default: 'nordic-load.json' },
  },
});
const scale = Number(values.scale);
const seed = Number(values.seed);
const countries = values.countries.split(',').map((c) => c.trim().toUpperCase()) as Country[];
if (!(scale > 0)) throw new Error('--scale must be a positive number');
for (const c of countries) if (!(c in SOURCES)) throw new Error(`unknown country ${c} (NO, SE, FI, DK)`);
const url = process.env.DATABASE_URL;
if (!url?.startsWith('postgres'))
  throw new Error('DATABASE_URL must name a PostgreSQL database (the COPY baseline needs one)');

const seconds = (t: number) => +((Date.now() - t) / 1000).toFixed(2);
const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);

/** The country's files, generated once per (size, seed): a directory is renamed into place when complete. */
async function filesOf(country: Country): Promise<{ dir: string; count: number; generatedS: number | null }> {
  const source = SOURCES[country];
  const count = source.count(Math.round(REAL_SIZE[country] * scale));
  const dir = path.join(ROOT, 'bench/.data', `${DIR_PREFIX[country]}-${count}-${seed}`);
  if (source.jobs.every(([, f]) => existsSync(path.join(dir, f)))) return { dir, count, generatedS: null };
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const t = Date.now();
  console.log(`${country}: generating ${count} records into ${path.relative(ROOT, dir)} …`);
  await source.write(partial, count, seed);
  await rm(dir, { recursive: true, force: true });
  await rename(partial, dir);
  return { dir, count, generatedS: seconds(t) };
}

/** Columns COPY can write: generated columns are computed by the server and must be left out. */
async function copyColumns(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT quote_ident(attname) AS name FROM pg_attribute
      WHERE attrelid = 'companies'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
      ORDER BY attnum`,
  );
  return rows.map((r) => r.name).join(', ');
}

/**
 * PostgreSQL's COPY of one country's company rows out of the store and into an empty table shaped
 * like companies with all its indexes (LIKE … INCLUDING ALL), streamed from one connection to
 * another (pg-copy-streams). The table is logged like companies, so the WAL work is the same.
 */
async function copyBaseline(country: Country): Promise<{ rows: number; s: number; rowsPerS: number }> {
  const source = new pg.Client({ connectionString: url });
  const target = new pg.Client({ connectionString: url });
  await Promise.all([source.connect(), target.connect()]);
  try {
    const columns = await copyColumns(source);
    await target.query('DROP TABLE IF EXISTS bench_copy_companies');
    await target.query('CREATE TABLE bench_copy_companies (LIKE companies INCLUDING ALL)');
    const t = Date.now();
    // COPY takes no parameters; the country is one of four fixed literals.
    const out = source.query(copyTo(`COPY (SELECT ${columns} FROM companies WHERE country = '${country}') TO STDOUT`));
    const into = target.query(copyFrom(`COPY bench_copy_companies (${columns}) FROM STDIN`));
    await pipeline(out, into);
    const s = seconds(t);
    await target.query('DROP TABLE bench_copy_companies');
    return { rows: into.rowCount, s, rowsPerS: Math.round(into.rowCount / s) };
  } finally {
    await Promise.all([source.end(), target.end()]);
  }
}

interface TableSize {
  table: string;
  rows: number;
  tableMb: number;
  indexesMb: number;
  totalMb: number;
}

/** Every table of 1 MB or more: heap, indexes, and the total with TOAST. */
async function tableSizes(): Promise<TableSize[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string; heap: string; idx: string; total: string }>(
      `SELECT c.relname AS table, pg_relation_size(c.oid) AS heap, pg_indexes_size(c.oid) AS idx,
              pg_total_relation_size(c.oid) AS total
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND pg_total_relation_size(c.oid) >= 1048576
        ORDER BY pg_total_relation_size(c.oid) DESC`,
    );
    const out: TableSize[] = [];
    for (const r of rows) {
      const [{ n }] = (
        await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${client.escapeIdentifier(r.table)}`)
      ).rows;
      out.push({ table: r.table, rows: n, tableMb: mb(+r.heap), indexesMb: mb(+r.idx), totalMb: mb(+r.total) });
    }
    return out;
  } finally {
    await client.end();
  }
}

const startedAt = new Date().toISOString();
const machineBefore = machine();
const t0 = Date.now();
const files = new Map<Country, Awaited<ReturnType<typeof filesOf>>>();
for (const c of countries) files.set(c, await filesOf(c));
if (values['generate-only']) {
  console.log(`generated in ${seconds(t0)} s`);
  process.exit(0);
}

const config = loadConfig({ ...process.env, DEMO_DATA: 'off', LOG_LEVEL: 'warn' });
const ctx = await buildContext(config, { logger: createLogger('warn') });
const loads: Record<string, { records: number; loadS: number; rowsPerS: number; jobs: object[] }> = {};
try {
  for (const c of countries) {
    const { dir } = files.get(c)!;
    const jobs: { job: string; file: string; records: number; s: number; rowsPerS: number }[] = [];
    for (const [job, file] of SOURCES[c].jobs) {
      const t = Date.now();
      const r = await runJob(ctx, job, { file: path.join(dir, file), follow: false }, (m) => console.log(`  ${m}`));
      const s = seconds(t);
      jobs.push({ job, file, records: r.recordsProcessed, s, rowsPerS: Math.round(r.recordsProcessed / s) });
      console.log(`${c} ${job}: ${r.recordsProcessed} records in ${s} s`);
    }
    // The country's companies are its first job's records; its load time is all of its jobs.
    const records = jobs[0].records;
    const loadS = +jobs.reduce((sum, j) => sum + j.s, 0).toFixed(2);
    loads[c] = { records, loadS, rowsPerS: Math.round(records / loadS), jobs };
  }
} finally {
  await closeContext(ctx);
}

const results: Record<string, object> = {};
console.log('\ncountry  records  load s  rows/s  COPY s  COPY rows/s  rate/COPY');
for (const c of countries) {
  const load = loads[c];
  const copy = await copyBaseline(c);
  const ratio = +(load.rowsPerS / copy.rowsPerS).toFixed(3);
  results[c] = {
    ...load,
    generator: {
      dir: path.relative(ROOT, files.get(c)!.dir),
      count: files.get(c)!.count,
      generatedS: files.get(c)!.generatedS,
    },
    copy,
    rateToCopy: ratio,
  };
  console.log(
    `${c.padEnd(7)}  ${String(load.records).padStart(7)}  ${String(load.loadS).padStart(6)}  ${String(load.rowsPerS).padStart(6)}  ` +
      `${String(copy.s).padStart(6)}  ${String(copy.rowsPerS).padStart(11)}  ${ratio} (COPY ${(1 / ratio).toFixed(1)}× faster)`,
  );
}

const sizes = await tableSizes();
console.log('\ntable                     rows   table MB  indexes MB  total MB');
for (const s of sizes)
  console.log(
    `${s.table.padEnd(20)} ${String(s.rows).padStart(9)}  ${String(s.tableMb).padStart(9)}  ${String(s.indexesMb).padStart(10)}  ${String(s.totalMb).padStart(8)}`,
  );

const out = {
  scenario: 'nordic-load',
  command: `node --import tsx bench/load-nordic.ts --scale ${scale} --countries ${countries.join(',')} --seed ${seed}`,
  scale,
  seed,
  realSizes: REAL_SIZE,
  startedAt,
  wallS: seconds(t0),
  machine: { ...machineBefore, loadavgAfter: machine().loadavg },
  copyMethod:
    'pg-copy-streams: COPY (SELECT … FROM companies WHERE country = X) TO STDOUT piped into COPY … FROM STDIN of a logged table LIKE companies INCLUDING ALL (all indexes), one country at a time',
  countries: results,
  sizes,
};
await mkdir(path.join(ROOT, 'bench/results'), { recursive: true });
await writeFile(path.join(ROOT, 'bench/results', values.out), `${JSON.stringify(out, null, 2)}\n`);
console.log(`\nwritten bench/results/${values.out} (wall ${out.wallS} s)`);
