// The work bounds of one match call (security issue 52, item 3), on a fake of the name
// repository that keeps the store's rules (a statement answers each probe's query with its
// candidates, and says how long it held the connection): lookups go in statements of a few
// probes, one at a time on the embedded engine with the event loop turning in between, each with
// its statement time; once the call's store time is spent, the names not reached are answered
// not_attempted with the reason, and the names done keep their results.
import { describe, expect, it } from 'vitest';
import { foldedWords } from '../../../src/domain/company-match/index.ts';
import { createCompanyMatchService } from '../../../src/services/company-match/company-match.ts';
import type { MatchBounds } from '../../../src/services/company-match/match-lookups.ts';
import type { CandidateLookup, CandidateProbe, MatchCandidateRow } from '../../../src/store/company-names.ts';

const row = (query: number, orgNumber: string, name: string): MatchCandidateRow => ({
  query,
  country: 'NO',
  org_number: orgNumber,
  name,
  org_form_code: 'AS',
  business_address_city: 'BERGEN',
  business_address_municipality: 'BERGEN',
  business_address_postal_code: '5003',
  postal_address_city: null,
  postal_address_postal_code: null,
  website: null,
  primary_domain: null,
  is_deleted: false,
  is_bankrupt: false,
  is_being_dissolved: false,
  is_in_forced_dissolution: false,
  status: null,
});

/** The name repository: each probe finds the company named by the query's index; each statement takes `ms`. */
function fakeNames(opts: { ms?: number; cancel?: (probes: CandidateProbe[]) => boolean } = {}) {
  const statements: { probes: CandidateProbe[]; timeoutMs: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let turnsBetween = 0;
  let turned = true;
  return {
    statements,
    get maxInFlight() {
      return maxInFlight;
    },
    /** Statements that started before the event loop turned since the previous one ended. */
    get back2back() {
      return turnsBetween;
    },
    async candidates(probes: CandidateProbe[], o: { timeoutMs: number }): Promise<CandidateLookup> {
      if (!turned) turnsBetween++;
      statements.push({ probes, timeoutMs: o.timeoutMs });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      turned = false;
      setImmediate(() => (turned = true));
      const ms = opts.ms ?? 10;
      if (opts.cancel?.(probes)) return { rows: [], complete: false, ms };
      const rows = probes.map((p) => row(p.query, String(900000000 + p.query), `Firma ${p.query} AS`));
      return { rows, complete: true, ms };
    },
    async namesOf() {
      return [];
    },
  };
}

function service(names: ReturnType<typeof fakeNames>, bounds: Partial<MatchBounds>) {
  return createCompanyMatchService({ names, domains: { domainCandidates: async () => [] }, bounds });
}

describe('company match: the work bounds of a call', () => {
  it('answers the names past the store-time budget not_attempted, and keeps the names done', async () => {
    const names = fakeNames({ ms: 1000 });
    const s = service(names, { concurrency: 1, probesPerStatement: 4, callBudgetMs: 5000 });
    const queries = Array.from({ length: 100 }, (_, i) => ({ name: `Firma ${i}` }));
    const r = await s.match({ queries });
    expect(r.results).toHaveLength(100);
    // Five statements of four names each spend the budget.
    expect(names.statements).toHaveLength(5);
    const done = r.results.filter((x) => x.status === 'done');
    expect(done).toHaveLength(20);
    done.forEach((x, i) => {
      expect(x.query).toEqual(queries[i]);
      expect(x.candidates[0].orgNumber).toBe(String(900000000 + i));
    });
    for (const x of r.results.slice(20)) {
      expect(x).toMatchObject({ status: 'not_attempted', match: null, candidates: [] });
      expect(x.reason?.code).toBe('work_budget_exhausted');
      expect(x.reason?.message).toMatch(/fewer names/);
    }
  });

  it('stops starting lookups once the call has run its time, whatever the store time', async () => {
    const names = fakeNames({ ms: 0 });
    const s = service(names, { concurrency: 1, probesPerStatement: 1, callDeadlineMs: 0 });
    const r = await s.match({ queries: [{ name: 'Firma 1' }, { name: 'Firma 2' }] });
    expect(names.statements).toHaveLength(0);
    expect(r.results.map((x) => x.reason?.code)).toEqual(['work_budget_exhausted', 'work_budget_exhausted']);
  });

  it('answers the names of a cancelled statement lookup_timed_out, and the others done', async () => {
    const names = fakeNames({ cancel: (probes) => probes.some((p) => p.query === 5) });
    const s = service(names, { concurrency: 1, probesPerStatement: 4, statementTimeoutMs: 750 });
    const r = await s.match({ queries: Array.from({ length: 12 }, (_, i) => ({ name: `Firma ${i}` })) });
    expect(names.statements.every((x) => x.timeoutMs === 750)).toBe(true);
    expect(r.results.map((x) => x.status)).toEqual([
      ...Array(4).fill('done'),
      ...Array(4).fill('not_attempted'),
      ...Array(4).fill('done'),
    ]);
    expect(r.results[5].reason?.code).toBe('lookup_timed_out');
  });

  it('looks pathological names up by a bounded number of probes, a few per statement, one statement at a time, the event loop turning between them', async () => {
    const names = fakeNames();
    const s = service(names, { concurrency: 1, probesPerStatement: 4, callBudgetMs: 1e9 });
    const queries = [
      'Общество с ограниченной ответственностью Ромашка Северный Торговый Дом Холдинг Инвест',
      'Ελληνική Εταιρεία Εμπορίου Ανώνυμη Ναυτιλιακή',
      'ромашка bygg σπίτι eiendom holding',
      Array.from({ length: 60 }, (_, i) => `ord${i}`)
        .join(' ')
        .slice(0, 300),
      'bygg bygg bygg bygg bygg bygg bygg',
      'a b c d e f g h i j k l m n o p q r s t u v w x y z',
      'Шшшшшшшшшшшшшшшшшшшш xxxxxxxxxxxxxxxxxxxx',
    ].map((name) => ({ name }));
    // No candidate rows: every name takes its all-but-one and misspelt-word lookups too.
    names.candidates = ((orig) => async (p, o) => ({ ...(await orig(p, o)), rows: [] }))(names.candidates);
    const r = await s.match({ queries });
    expect(r.results.every((x) => x.status === 'done')).toBe(true);
    const probes = names.statements.flatMap((x) => x.probes);
    expect(names.statements.every((x) => x.probes.length <= 4)).toBe(true);
    expect(names.maxInFlight).toBe(1);
    expect(names.back2back).toBe(0);
    queries.forEach((_, i) => {
      const mine = probes.filter((p) => p.query === i);
      expect(mine.length, queries[i].name).toBeGreaterThan(0);
      expect(mine.length, queries[i].name).toBeLessThanOrEqual(7);
      for (const p of mine) {
        const words = foldedWords(p.words);
        // Never a probe whose words fold to nothing (it held every name of the register) …
        expect(words.length > 0 || (p.alts?.length ?? 0) > 0, queries[i].name).toBe(true);
        // … nor more than six words, nor a repeated one.
        expect(words.length).toBeLessThanOrEqual(6);
        expect(new Set(words).size).toBe(words.length);
        expect(p.key.length).toBeLessThanOrEqual(120);
      }
    });
    // Other scripts are looked up by their transliteration.
    expect(probes.find((p) => p.query === 0)!.words).toMatch(/romashka/);
    expect(probes.find((p) => p.query === 1)!.words).toMatch(/etaireia/);
    expect(foldedWords(probes.find((p) => p.query === 4)!.words)).toEqual(['bygg']);
  });

  it('runs a few statements at once on a server', async () => {
    const names = fakeNames();
    const s = service(names, { concurrency: 4, probesPerStatement: 4 });
    await s.match({ queries: Array.from({ length: 40 }, (_, i) => ({ name: `Firma ${i}` })) });
    expect(names.statements).toHaveLength(10);
    expect(names.maxInFlight).toBe(4);
  });
});
