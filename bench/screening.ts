// Screening latency on a list of generated entities (OpenSanctions FtM NDJSON, loaded through
// the real `sanctions` job) and generated Norwegian companies with exactly 10 screening
// subjects each: the company name, 5 role holders and 4 holders of the latest shareholder year
// (2 persons, 1 Norwegian company, 1 foreign company). One company in five has a role holder who
// is on the list under a Norwegian spelling. GET /api/screening/{orgNumber} over real HTTP on
// loopback, concurrency 1, each company screened once (no per-company warm cache). Then
// POST /api/screening/match with 100 entities per call (70 persons with generated names, of which
// 10 are listed persons under a Norwegian spelling, and 30 organisations), each call new names.
//   DATABASE_URL=… node --import tsx bench/screening.ts [--entities 300000] [--companies 400] [--match-calls 60]
// Writes bench/results/screening-<engine>.json and prints a Markdown table.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RoleInput } from '../src/domain/company.ts';
import { runJob } from '../src/jobs/runner.ts';
import '../src/jobs/shareholders.ts';
import { orgNumberFor } from '../src/sources/brreg/generate.ts';
import { byCompany, byForeign, byPerson, company, csvText, type Line } from '../test/fixtures/aksjonaer/build.ts';
import { benchKey, getJson, percentiles, postJson, startBenchApp } from './harness.ts';
import { FIRST_NAMES, LAST_NAMES, listedPerson, seededRandom, writeFtmFile } from './screening-data.ts';

const { values } = parseArgs({
  options: {
    entities: { type: 'string', default: '300000' },
    companies: { type: 'string', default: '400' },
    seed: { type: 'string', default: '1' },
    'match-calls': { type: 'string', default: '60' },
  },
});
const ENTITIES = Number(values.entities);
const COMPANIES = Number(values.companies);
const SEED = Number(values.seed);
const WARMUP = 20;
const LIST = 'bench';
const dataDir = path.resolve('bench/.data');
mkdirSync(dataDir, { recursive: true });

const { built, base } = await startBenchApp();
const { ctx } = built;
const quiet = () => undefined;

// 1. The list (kept between runs when it already holds the requested entity count).
const loaded = (await ctx.repos.screening.lists()).find((l) => l.name === LIST);
let ingestSeconds: number | null = null;
if (loaded?.entityCount !== ENTITIES) {
  const file = path.join(dataDir, `sanctions-${ENTITIES}-${SEED}.ftm.json.gz`);
  if (!existsSync(file)) {
    console.log(`generating ${ENTITIES} FtM entities into ${file} …`);
    await writeFtmFile(file, ENTITIES, SEED);
  }
  const t = performance.now();
  const run = await runJob(ctx, 'sanctions', { file, list: LIST }, quiet);
  ingestSeconds = +((performance.now() - t) / 1000).toFixed(1);
  console.log(`sanctions ingest: ${run.recordsProcessed} records in ${ingestSeconds} s`);
}

// 2. The companies: 10 subjects each; every fifth has a listed person among its role holders.
const orgOf = (i: number) => orgNumberFor(i, 84_000_000);
const listedPeople: { name: string; birthYear: number | null }[] = [];
for (let j = 0; listedPeople.length < COMPANIES; j += 7) {
  const p = listedPerson(j, SEED);
  if (p) listedPeople.push(p);
}
function role(code: string, name: string, birthYear: number | null, position: number): RoleInput {
  const parts = name.split(' ');
  return {
    groupCode: null,
    groupDescription: null,
    roleTypeCode: code,
    roleTypeDescription: null,
    personFirstName: parts.slice(0, -1).join(' '),
    personMiddleName: null,
    personLastName: parts[parts.length - 1],
    personBirthYear: birthYear,
    entityOrgNumber: null,
    entityName: null,
    electedBy: null,
    responsibilityShare: null,
    position,
  };
}
const companyName = (i: number) =>
  `BENCH ${LAST_NAMES[i % LAST_NAMES.length].toUpperCase()} ${['HANDEL', 'EIENDOM', 'INVEST', 'BYGG', 'TRANSPORT'][i % 5]} ${i} AS`;
const writes = [];
const register: Line[] = [];
for (let i = 0; i < COMPANIES + WARMUP; i++) {
  const r = seededRandom(SEED * 7919 + i);
  const personName = () => `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
  const roles = ['DAGL', 'LEDE', 'MEDL', 'MEDL', 'VARA'].map((code, k) =>
    role(code, personName(), r.int(1945, 1995), k),
  );
  if (i % 5 === 0) {
    const hit = listedPeople[i % listedPeople.length];
    roles[2] = role('MEDL', hit.name, hit.birthYear, 2);
  }
  const name = companyName(i);
  writes.push({ ...company(orgOf(i), name), roles });
  register.push(
    byPerson(orgOf(i), name, personName().toUpperCase(), r.int(1945, 1995), 400, 1000),
    byPerson(orgOf(i), name, personName().toUpperCase(), r.int(1945, 1995), 300, 1000),
    byCompany(orgOf(i), name, orgOf(100_000 + i), `${r.pick(LAST_NAMES).toUpperCase()} HOLDING AS`, 200, 1000),
    byForeign(orgOf(i), name, `${r.pick(LAST_NAMES).toUpperCase()} KAPITAL AB`, 100, 1000),
  );
}
for (let i = 0; i < writes.length; i += 100) await ctx.repos.companyWrites.write(writes.slice(i, i + 100));
const registerFile = path.join(dataDir, `screening-register-${COMPANIES}.csv`);
writeFileSync(registerFile, csvText(register));
await runJob(ctx, 'shareholders', { file: registerFile, year: 2024 }, quiet);

// 3. Screening, one request per company.
const key = await benchKey(built, 'screening');
const times: number[] = [];
let subjects = 0;
let matches = 0;
let plantedFound = 0;
for (let i = 0; i < WARMUP + COMPANIES; i++) {
  const t = performance.now();
  const res = await getJson(`${base}/api/screening/${orgOf(i)}`, key);
  const ms = performance.now() - t;
  if (res.status !== 200)
    throw new Error(`screening ${orgOf(i)}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  if (res.body.subjects.length !== 10)
    throw new Error(`${orgOf(i)} has ${res.body.subjects.length} subjects, expected 10`);
  if (i < WARMUP) continue;
  times.push(ms);
  subjects += res.body.subjects.length;
  matches += res.body.matches.length;
  if (
    i % 5 === 0 &&
    res.body.matches.some(
      (m: { subject: string }) =>
        m.subject === res.body.subjects.find((s: { role: string }) => s.role === 'role:MEDL')?.id,
    )
  )
    plantedFound++;
}

// 4. Screening any entity: 100 per call.
const MATCH_CALLS = Number(values['match-calls']);
const matchTimes: number[] = [];
let matchFlags = 0;
let matchPlanted = 0;
for (let c = 0; c < 5 + MATCH_CALLS; c++) {
  const r = seededRandom(SEED * 104_729 + c);
  const queries: Record<string, unknown> = {};
  for (let k = 0; k < 100; k++) {
    if (k < 10) {
      const p = listedPeople[(c * 10 + k) % listedPeople.length];
      queries[`p${k}`] = { schema: 'Person', name: p.name, ...(p.birthYear ? { birthDate: String(p.birthYear) } : {}) };
    } else if (k < 70) {
      queries[`p${k}`] = {
        schema: 'Person',
        name: `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`,
        birthDate: String(r.int(1945, 1995)),
      };
    } else {
      queries[`o${k}`] = {
        schema: 'Company',
        name: `${r.pick(LAST_NAMES)} ${['Trading', 'Holding', 'Shipping'][k % 3]} ${c}-${k} AS`,
      };
    }
  }
  const t = performance.now();
  const res = await postJson(`${base}/api/screening/match`, key, { queries });
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`match: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  if (c < 5) continue;
  matchTimes.push(ms);
  for (const [k, v] of Object.entries(res.body.responses as Record<string, { matches: number }>)) {
    matchFlags += v.matches;
    if (Number(k.slice(1)) < 10 && k.startsWith('p') && v.matches > 0) matchPlanted++;
  }
}
const matchResult = {
  ...percentiles(matchTimes),
  flagged: matchFlags,
  planted: MATCH_CALLS * 10,
  plantedFound: matchPlanted,
};

const list = (await ctx.repos.screening.lists()).find((l) => l.name === LIST)!;
const result = {
  ...percentiles(times),
  entities: list.entityCount,
  companies: COMPANIES,
  subjectsPerCompany: subjects / COMPANIES,
  possibleMatches: matches,
  plantedHits: Math.ceil(COMPANIES / 5),
  plantedFound,
  ingestSeconds,
  match: matchResult,
};
console.log(
  `\nengine: ${ctx.store.engine}; list entities: ${list.entityCount}; ${COMPANIES} companies × 10 subjects; concurrency 1\n`,
);
console.log(
  '| GET /api/screening/{orgNumber} | p50 ms | p95 ms | p99 ms | possible matches | planted hits found |\n|---|---|---|---|---|---|',
);
console.log(
  `| 10 subjects, ${list.entityCount} entities | ${result.p50} | ${result.p95} | ${result.p99} | ${matches} | ${plantedFound}/${result.plantedHits} |`,
);
console.log(
  '\n| POST /api/screening/match | p50 ms | p95 ms | p99 ms | flagged | planted hits found |\n|---|---|---|---|---|---|',
);
console.log(
  `| 100 entities, ${list.entityCount} list entities | ${matchResult.p50} | ${matchResult.p95} | ${matchResult.p99} | ${matchFlags} | ${matchPlanted}/${matchResult.planted} |`,
);
// Memory of the server process (this process serves the API): after the timed runs, then after
// one call with names in Han, Hangul and Kana, which loads the romanisation dictionaries.
const mb = () => Math.round(process.memoryUsage().rss / 1_048_576);
const rssAfterRuns = mb();
const scripts = { k1: '김정은', k2: '習近平', k3: '岸田文雄', k4: 'やまもと たろう', k5: 'Kim Jong Un' };
const st = performance.now();
const sres = await postJson(`${base}/api/screening/match`, key, {
  queries: Object.fromEntries(Object.entries(scripts).map(([k, name]) => [k, { schema: 'Person', name }])),
});
const scriptMs = +(performance.now() - st).toFixed(1);
if (sres.status !== 200) throw new Error(`match: ${sres.status}`);
const memory = { rssAfterRunsMb: rssAfterRuns, rssWithDictionariesMb: mb(), firstNonLatinCallMs: scriptMs };
console.log(
  `\nRSS after the timed runs ${memory.rssAfterRunsMb} MB; after one POST /api/screening/match with Hangul, Han and Kana names ` +
    `${memory.rssWithDictionariesMb} MB (that first call ${scriptMs} ms, dictionary load included)`,
);
mkdirSync('bench/results', { recursive: true });
const out = `bench/results/screening-${ctx.store.engine === 'embedded' ? 'pglite' : 'postgresql'}.json`;
writeFileSync(
  out,
  JSON.stringify(
    { at: new Date().toISOString(), engine: ctx.store.engine, node: process.version, result, memory },
    null,
    2,
  ),
);
console.log(`\nwritten ${out}`);
await built.close();
