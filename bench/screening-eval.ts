// Evaluates the screening matcher (npm run eval:screening):
//   node --import tsx bench/screening-eval.ts [--threshold 0.75] [--file PATH] [--errors] [--own]
// Reads OpenSanctions name_bench (development split, third-party labels) from --file or
// SCREENING_BENCH_FILE, default ../shared/eval/screening/name-bench-dev.json relative to the repo
// root, and our own 248 labelled pairs (test/fixtures/screening/labelled-pairs.json). Prints the
// issue-27 target table; --errors lists every misclassified pair of the benchmark, --own those of
// our set.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_THRESHOLD } from '../src/domain/screening/rank.ts';
import type { NameKind, SanctionSchema } from '../src/domain/screening/types.ts';
import { evaluatePairs, type Evaluation, type LabelledPair } from '../test/domain/screening/evaluate.ts';

interface BenchPair {
  id: string;
  kind: 'person' | 'organisation';
  schema: SanctionSchema;
  query: string;
  candidate: string;
  expected: boolean;
  category: string;
  reference: { score: number; threshold: number; match: boolean } | null;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    threshold: { type: 'string' },
    file: { type: 'string' },
    errors: { type: 'boolean', default: false },
    own: { type: 'boolean', default: false },
  },
});
const threshold = args.threshold ? Number(args.threshold) : DEFAULT_THRESHOLD;
const file = path.resolve(
  root,
  args.file ?? process.env.SCREENING_BENCH_FILE ?? '../shared/eval/screening/name-bench-dev.json',
);
if (!existsSync(file)) {
  console.error(`benchmark file not found: ${file} (pass --file PATH or set SCREENING_BENCH_FILE)`);
  process.exit(2);
}

const bench = (JSON.parse(readFileSync(file, 'utf8')) as { pairs: BenchPair[] }).pairs;
const own = JSON.parse(
  readFileSync(path.join(root, 'test/fixtures/screening/labelled-pairs.json'), 'utf8'),
) as LabelledPair[];

const toLabelled = (p: BenchPair): LabelledPair => ({
  subject: { name: p.query, kind: p.kind as NameKind },
  entity: { name: p.candidate, schema: p.schema },
  expected: p.expected,
  note: p.id,
});

// A name is non-Latin when it has letters of another script (Cyrillic, Arabic, Hangul …).
const nonLatin = (s: string) => /\p{L}/u.test(s.replace(/\p{Script=Latin}/gu, ''));
const crossScript = (p: BenchPair) => nonLatin(p.query) !== nonLatin(p.candidate);

const pct = (n: number) => (n * 100).toFixed(1);
const rows: [string, number, Evaluation][] = [];
const add = (label: string, pairs: LabelledPair[]) => rows.push([label, pairs.length, evaluatePairs(pairs, threshold)]);

add('name_bench dev, overall', bench.map(toLabelled));
add('persons', bench.filter((p) => p.kind === 'person').map(toLabelled));
add('organisations', bench.filter((p) => p.kind === 'organisation').map(toLabelled));
add('cross-script (non-Latin ↔ Latin)', bench.filter(crossScript).map(toLabelled));
add('any non-Latin side', bench.filter((p) => nonLatin(p.query) || nonLatin(p.candidate)).map(toLabelled));
add('our 248 labelled pairs', own);

// The saved scores of nomenklatura LogicV2 (threshold 0.7), for comparison on the same pairs.
const withRef = bench.filter((p) => p.reference);
let rtp = 0;
let rfp = 0;
let rfn = 0;
for (const p of withRef) {
  if (p.reference!.match && p.expected) rtp++;
  else if (p.reference!.match) rfp++;
  else if (p.expected) rfn++;
}
const rp = rtp / (rtp + rfp);
const rr = rtp / (rtp + rfn);

console.log(`threshold ${threshold}   benchmark ${path.relative(root, file)} (${bench.length} pairs)\n`);
console.log('| slice | pairs | P % | R % | F1 % | TP | FP | TN | FN |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [label, n, r] of rows) {
  console.log(
    `| ${label} | ${n} | ${pct(r.precision)} | ${pct(r.recall)} | ${pct(r.f1)} | ${r.tp} | ${r.fp} | ${r.tn} | ${r.fn} |`,
  );
}
console.log(
  `| nomenklatura LogicV2 (saved scores, 0.7) | ${withRef.length} | ${pct(rp)} | ${pct(rr)} | ${pct((2 * rp * rr) / (rp + rr))} | ${rtp} | ${rfp} | | ${rfn} |`,
);

const overall = rows[0][2];
const targets: [string, boolean][] = [
  ['overall F1 ≥ 0.88', overall.f1 >= 0.88],
  ['overall precision ≥ 0.90', overall.precision >= 0.9],
  ['persons F1 ≥ 0.85', rows[1][2].f1 >= 0.85],
  ['organisations F1 ≥ 0.85', rows[2][2].f1 >= 0.85],
  ['cross-script recall ≥ 0.85', rows[3][2].recall >= 0.85],
  ['own set precision ≥ 0.95', rows[5][2].precision >= 0.95],
  ['own set recall ≥ 0.95', rows[5][2].recall >= 0.95],
];
console.log('\ntargets:');
for (const [t, ok] of targets) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${t}`);

function listErrors(r: Evaluation) {
  for (const m of r.misclassified) {
    const e = m.result.explanation;
    console.log(
      `${m.pair.expected ? 'FN' : 'FP'} ${m.result.score.toFixed(3)}  "${m.pair.subject.name}" ~ "${m.result.matchedName}"  ` +
        `(${m.pair.subject.kind}, name ${e.nameSimilarity}, ${m.result.matchType}) ${m.pair.note}`,
    );
  }
}
if (args.errors) {
  console.log('\nname_bench misclassified:');
  listErrors(overall);
}
if (args.own) {
  console.log('\nown set misclassified:');
  listErrors(rows[5][2]);
}
process.exitCode = targets.every(([, ok]) => ok) ? 0 : 1;
