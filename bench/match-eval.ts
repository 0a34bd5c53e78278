// Evaluates name -> organisation number matching (issue 28) on a loaded store, and times it:
//   DATABASE_URL=postgres://…/ncd_bench node --import tsx bench/match-eval.ts [--companies 600] [--seed 1] [--warmup 300]
// Builds a labelled set from the store itself: live companies whose name no other company has,
// each perturbed as users write names (legal form dropped or spelt out, abbreviation, word order,
// typo, Nordic letters missing, city added, former name), plus hard negatives: names of the same
// shape that no company has (a real name with its first word swapped). Former names are written
// to company_names for the sampled companies first (a made-up earlier name, removed afterwards).
// Reports precision of auto-matches and recall per threshold, per perturbation, and the latency
// of 100-query batches through the service (the same call POST /api/companies/match makes),
// after --warmup queries of other companies' names (untimed: the state of a running server).
import { parseArgs } from 'node:util';
import { buildContext, closeContext } from '../src/runtime/build-context.ts';
import { loadConfig } from '../src/config/index.ts';
import { MATCH_MARGIN, MATCH_THRESHOLD } from '../src/domain/company-match/index.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/runtime/services.ts';
import { seededRandom } from '../src/sources/seeded-random.ts';

const { values } = parseArgs({
  options: {
    companies: { type: 'string', default: '600' },
    seed: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '300' },
  },
});
const rng = seededRandom(Number(values.seed));
const config = loadConfig({ ...process.env, DEMO_DATA: 'off', SYNC_SCHEDULE: 'off', LOG_LEVEL: 'warn' });
const ctx = await buildContext(config, { logger: createLogger('warn') });
const { companyMatch } = createServices(ctx);

interface Item {
  category: string;
  name: string;
  expected: string | null;
}

const FORMS: Record<string, string> = { AS: 'Aksjeselskap', ASA: 'Allmennaksjeselskap', DA: 'Delt ansvar' };
const ABBREVIATIONS: [RegExp, string][] = [
  [/\bEIENDOM\b/i, 'Eiend.'],
  [/\bHOLDING\b/i, 'Hold.'],
  [/\bTRANSPORT\b/i, 'Transp.'],
  [/\bKONSULENT\b/i, 'Kons.'],
  [/\bREGNSKAP\b/i, 'Regnsk.'],
  [/ OG /i, ' & '],
];
const nordicOut = (s: string) =>
  s.replace(/[ÆæØøÅå]/g, (c) => ({ Æ: 'AE', æ: 'ae', Ø: 'O', ø: 'o', Å: 'AA', å: 'aa' })[c]!);
const title = (s: string) => s.toLowerCase().replace(/(^|\s)\p{L}/gu, (m) => m.toUpperCase());
const formOf = (name: string) => / (AS|ASA|DA|ANS|ENK|NUF|SA|BA)$/.exec(name)?.[1];
const withoutForm = (name: string) => name.replace(/ (AS|ASA|DA|ANS|ENK|NUF|SA|BA)$/, '');

function typo(name: string): string | null {
  const words = withoutForm(name).split(' ');
  const i = words.reduce((best, w, j) => (w.length > words[best].length ? j : best), 0);
  const w = words[i];
  if (w.length < 5) return null;
  const k = 1 + rng.int(0, w.length - 3);
  words[i] = w.slice(0, k) + w[k + 1] + w[k] + w.slice(k + 2);
  return words.join(' ');
}

const t0 = Date.now();
// A name of its own means: no other company has it under any legal form. "BERG GRUPPEN ØST SA"
// beside six "BERG GRUPPEN ØST AS" is no answer once the form is dropped or reordered: the
// matcher is right to decline, and such a label would measure the generator, not the matcher.
const sample = (
  await ctx.store.pool.query(
    `WITH b AS (
       SELECT org_number, name, business_address_city AS city, is_deleted,
              regexp_replace(name_norm, ' (as|asa|da|ans|enk|nuf|sa|ba)$', '') AS base
       FROM companies WHERE country = 'NO')
     SELECT org_number, name, city FROM b
     WHERE NOT is_deleted AND city IS NOT NULL
       AND base IN (SELECT base FROM b GROUP BY base HAVING count(*) = 1)
     ORDER BY md5(org_number || $1) LIMIT $2`,
    [values.seed, Number(values.companies)],
  )
).rows as { org_number: string; name: string; city: string }[];
console.log(`sampled ${sample.length} companies with a name of their own under any form (${Date.now() - t0} ms)`);

// Former names: a made-up earlier name for a third of the sample, stored as PRH stores them.
const formerOf = new Map<string, string>();
const former = sample.filter((_, i) => i % 3 === 0);
// Each made-up name once: two companies that both used to be "Nordre Furuvik Handel AS" would
// make the label ambiguous rather than test the matcher.
const usedFormer = new Set<string>();
for (const c of former) {
  const name = `${rng.pick(['Vestre', 'Nordre', 'Søndre', 'Østre', 'Indre', 'Ytre'])} ${rng.pick(['Lyng', 'Furu', 'Hav', 'Stein', 'Bjørke', 'Myr', 'Lia'])}${rng.pick(['tun', 'vik', 'dal', 'nes', 'berg', 'haug'])} ${rng.pick(['Handel', 'Service', 'Drift', 'Utvikling'])} AS`;
  if (!usedFormer.has(name)) formerOf.set(c.org_number, name);
  usedFormer.add(name);
}
await ctx.repos.companyNames.replaceHistory(
  'NO',
  'match-eval',
  former
    .filter((c) => formerOf.has(c.org_number))
    .map((c) => ({
      orgNumber: c.org_number,
      names: [
        { name: formerOf.get(c.org_number)!, kind: 'former' as const, validFrom: '2001-01-01', validTo: '2019-06-30' },
      ],
    })),
);

const items: Item[] = [];
const words = sample.map((c) => withoutForm(c.name).split(' ')[0]);
for (const c of sample) {
  const add = (category: string, name: string | null) => name && items.push({ category, name, expected: c.org_number });
  const form = formOf(c.name);
  add('exact', c.name);
  add('legal form dropped', form ? withoutForm(c.name) : null);
  add('legal form spelt out', form && FORMS[form] ? `${title(withoutForm(c.name))} ${FORMS[form]}` : null);
  const abbr = ABBREVIATIONS.find(([re]) => re.test(c.name));
  add('abbreviation', abbr ? c.name.replace(abbr[0], abbr[1]) : null);
  const w = withoutForm(c.name).split(' ');
  add('word order', w.length >= 2 ? title([w[1], w[0], ...w.slice(2)].join(' ')) : null);
  add('typo', typo(c.name));
  add('Nordic letters missing', /[ÆØÅ]/i.test(c.name) ? nordicOut(title(c.name)) : null);
  add('city added', `${title(withoutForm(c.name))} ${title(c.city)}`);
  add('former name', formerOf.get(c.org_number) ?? null);
  // Hard negative: the same name with another first word, when no company has that name.
  const other = words[rng.int(0, words.length - 1)];
  if (other && other !== w[0]) {
    const fake = [other, ...w.slice(1)].join(' ') + (form ? ` ${form}` : '');
    items.push({ category: 'negative', name: fake, expected: null });
  }
}
const fakes = items.filter((i) => i.expected === null).map((i) => i.name.toLowerCase());
const taken = new Set(
  (
    await ctx.store.pool.query(
      `SELECT name_norm FROM companies WHERE name_norm COLLATE "C" = ANY($1::text[]) OR name_norm COLLATE "C" = ANY($2::text[])`,
      [fakes, fakes.map((f) => withoutForm(f.toUpperCase()).toLowerCase())],
    )
  ).rows.map((r: { name_norm: string }) => r.name_norm),
);
const labelled = items.filter((i) => i.expected !== null || !taken.has(i.name.toLowerCase()));
console.log(`${labelled.length} labelled queries (${labelled.filter((i) => !i.expected).length} negatives)`);

// Warm-up, untimed: a server that has answered calls before, i.e. compiled code, open pool
// connections and planned statements, but none of the labelled names or their rows: three
// batches of names of other companies (every 4001st row, all words kept but the legal form).
const warmUp = (
  await ctx.store.pool.query(`SELECT name FROM companies WHERE id % 4001 = 7 ORDER BY id LIMIT $1`, [values.warmup])
).rows.map((r: { name: string }) => ({ name: withoutForm(r.name) }));
for (let i = 0; i < warmUp.length; i += 100) await companyMatch.matchQueries(warmUp.slice(i, i + 100), { limit: 2 });

// Run in batches of 100, timing each batch.
const decisions: { item: Item; top?: { orgNumber: string; score: number }; second?: number }[] = [];
const times: number[] = [];
for (let i = 0; i < labelled.length; i += 100) {
  const batch = labelled.slice(i, i + 100);
  const t = performance.now();
  const res = await companyMatch.matchQueries(
    batch.map((b) => ({ name: b.name })),
    { limit: 2 },
  );
  times.push(performance.now() - t);
  res.forEach((r, j) =>
    decisions.push({
      item: batch[j],
      top: r.candidates[0] && { orgNumber: r.candidates[0].candidate.orgNumber, score: r.candidates[0].score },
      second: r.candidates[1]?.score,
    }),
  );
}

function evaluate(threshold: number, filter: (i: Item) => boolean = () => true) {
  let auto = 0;
  let right = 0;
  let positives = 0;
  for (const d of decisions.filter((x) => filter(x.item))) {
    if (d.item.expected) positives++;
    const clear =
      d.top && d.top.score >= threshold && (d.second === undefined || d.top.score - d.second >= MATCH_MARGIN);
    if (!clear) continue;
    auto++;
    if (d.top!.orgNumber === d.item.expected) right++;
  }
  return { auto, right, positives, precision: auto ? right / auto : 1, recall: positives ? right / positives : 0 };
}
const pct = (x: number) => (100 * x).toFixed(1).padStart(5);
console.log(
  `\nthreshold  auto-matches  precision  recall   (margin ${MATCH_MARGIN}; default threshold ${MATCH_THRESHOLD})`,
);
for (const t of [0.7, 0.75, 0.8, 0.85, 0.9]) {
  const e = evaluate(t);
  console.log(`${t.toFixed(2).padStart(9)}  ${String(e.auto).padStart(12)}  ${pct(e.precision)} %  ${pct(e.recall)} %`);
}
console.log(`\nper perturbation at ${MATCH_THRESHOLD}:`);
for (const cat of [...new Set(labelled.map((i) => i.category))]) {
  const e = evaluate(MATCH_THRESHOLD, (i) => i.category === cat);
  const n = labelled.filter((i) => i.category === cat).length;
  console.log(
    `  ${cat.padEnd(24)} n=${String(n).padStart(4)}  auto ${String(e.auto).padStart(4)}  ` +
      (cat === 'negative' ? `false matches ${e.auto}` : `right ${e.right}  recall ${pct(e.recall)} %`),
  );
}
const sorted = [...times].sort((a, b) => a - b);
const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
console.log(
  `\n${times.length} batches of ≤100 queries (${ctx.store.engine}; after ${warmUp.length} warm-up queries): p50 ${q(0.5).toFixed(0)} ms, p95 ${q(0.95).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
);

console.log(`batch times in order (ms): ${times.map((t) => t.toFixed(0)).join(' ')}`);

await ctx.store.pool.query(`DELETE FROM company_names WHERE source = 'match-eval'`);
await closeContext(ctx);
