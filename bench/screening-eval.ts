// Evaluates the screening matcher on the labelled pairs:
//   node --import tsx bench/screening-eval.ts [threshold]
// Prints precision, recall, F1, the confusion counts and every misclassified pair.
import { readFileSync } from 'node:fs';
import { DEFAULT_THRESHOLD } from '../src/domain/screening/rank.ts';
import { evaluatePairs, type LabelledPair } from '../test/domain/screening/evaluate.ts';

const file = new URL('../test/fixtures/screening/labelled-pairs.json', import.meta.url);
const pairs = JSON.parse(readFileSync(file, 'utf8')) as LabelledPair[];
const threshold = process.argv[2] ? Number(process.argv[2]) : DEFAULT_THRESHOLD;
const r = evaluatePairs(pairs, threshold);
const pct = (n: number) => (n * 100).toFixed(1).padStart(5) + ' %';
console.log(`labelled pairs: ${pairs.length}  threshold: ${threshold}`);
console.log(`precision ${pct(r.precision)}   recall ${pct(r.recall)}   F1 ${pct(r.f1)}`);
console.log(`TP ${r.tp}  FP ${r.fp}  TN ${r.tn}  FN ${r.fn}`);
if (r.misclassified.length > 0) console.log('\nmisclassified:');
for (const m of r.misclassified) {
  const kind = m.pair.expected ? 'FN' : 'FP';
  const e = m.result.explanation;
  console.log(
    `${kind} ${m.result.score.toFixed(3)}  "${m.pair.subject.name}" ~ "${m.result.matchedName}"  ` +
      `(name ${e.nameSimilarity}, year ${e.birthYear}, ${m.result.matchType})  — ${m.pair.note}`,
  );
}
