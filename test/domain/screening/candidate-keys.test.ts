// Candidate retrieval must not lose matches: every labelled true match that the scorer finds
// must also be found by the indexed keys (pg_trgm similarity or phonetic-pair overlap), so a
// store never needs to re-score the whole list.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { candidateKeys } from '../../../src/domain/screening/candidate-keys.ts';
import { DEFAULT_THRESHOLD, rankCandidates } from '../../../src/domain/screening/rank.ts';
import { scoreMatch } from '../../../src/domain/screening/score.ts';
import type { NameKind } from '../../../src/domain/screening/types.ts';
import type { LabelledPair } from './evaluate.ts';

/** pg_trgm's similarity(): trigrams of each word padded '  w ', |A ∩ B| / |A ∪ B|. */
function trigrams(s: string): Set<string> {
  const out = new Set<string>();
  for (const w of s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)) {
    const p = `  ${w} `;
    for (let i = 0; i + 3 <= p.length; i++) out.add(p.slice(i, i + 3));
  }
  return out;
}
function pgTrgmSimilarity(a: string, b: string): number {
  const x = trigrams(a);
  const y = trigrams(b);
  const shared = [...x].filter((t) => y.has(t)).length;
  return shared / (x.size + y.size - shared || 1);
}
const PG_TRGM_DEFAULT_THRESHOLD = 0.3;

function retrieved(subject: string, names: string[], kind: NameKind): boolean {
  const s = candidateKeys(subject, kind);
  return names.some((n) => {
    const k = candidateKeys(n, kind);
    return (
      pgTrgmSimilarity(s.trigramKey, k.trigramKey) >= PG_TRGM_DEFAULT_THRESHOLD ||
      k.phoneticKeys.some((p) => s.phoneticKeys.includes(p))
    );
  });
}

describe('candidateKeys', () => {
  it('does not depend on token order, case, accents or legal forms', () => {
    expect(candidateKeys('PUTIN, Vladimir', 'person')).toEqual(candidateKeys('vladimir putin', 'person'));
    expect(candidateKeys('Gazprom Neft PJSC', 'organisation')).toEqual(
      candidateKeys('ПАО Газпром нефть', 'organisation'),
    );
    const k = candidateKeys('Vladimir Vladimirovich Putin', 'person');
    expect(k.trigramKey).toBe('putin vladimir vladimirovikh');
    expect(k.phoneticKeys).toContain('FLTM+PTN');
  });

  it('meets an Arabic compound and its Latin spellings by consonant skeleton', () => {
    const arabic = candidateKeys('عبد العزيز', 'person').phoneticKeys;
    for (const latin of ['Abdul Aziz', 'Abd al-Aziz', 'Abd El Aziz'])
      expect(candidateKeys(latin, 'person').phoneticKeys.some((k) => arabic.includes(k))).toBe(true);
    // One word's skeleton alone is no key: it would fetch every Mohammed.
    expect(candidateKeys('Mohammed', 'person').phoneticKeys.some((k) => k.startsWith('~'))).toBe(false);
  });

  it('uses single codes only for one-word names, and ignores particles', () => {
    expect(candidateKeys('Rosneft', 'organisation').phoneticKeys).toEqual(['RSNF']);
    expect(
      candidateKeys('Bashar al-Assad', 'person')
        .phoneticKeys.filter((k) => !k.startsWith('~'))
        .every((k) => k.includes('+') && !k.split('+').includes('AL')),
    ).toBe(true);
  });

  it('retrieves every labelled true match that scores above the threshold', () => {
    const pairs = JSON.parse(
      readFileSync(new URL('../../fixtures/screening/labelled-pairs.json', import.meta.url), 'utf8'),
    ) as LabelledPair[];
    const lost = pairs
      .filter((p) => p.expected && scoreMatch(p.subject, p.entity).score >= DEFAULT_THRESHOLD)
      .filter((p) => !retrieved(p.subject.name, [p.entity.name, ...(p.entity.aliases ?? [])], p.subject.kind))
      .map((p) => p.subject.name);
    expect(lost).toEqual([]);
  });

  it('retrieves a translated organisation name by the meaning of its words, not by sound', () => {
    // Own examples: no sound is shared between a translation and a transliteration.
    const translated: [string, string][] = [
      ['Kostroma Machine-Building Plant', 'АО «Костромской машиностроительный завод»'],
      ['Saratov Aviation Plant', 'Saratovskiy Aviatsionnyy Zavod'],
      ['Tomsk Research Institute of Oil and Gas', 'Томский научно-исследовательский институт нефти и газа'],
    ];
    for (const [subject, listed] of translated) {
      expect(
        scoreMatch({ name: subject, kind: 'organisation' }, { name: listed, schema: 'Company' }).score,
      ).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
      expect(retrieved(subject, [listed], 'organisation')).toBe(true);
    }
    // A meaning key pairs the place with the word: another plant in another town shares none.
    const other = candidateKeys('Самарский авиационный завод', 'organisation').phoneticKeys;
    expect(other.some((k) => candidateKeys('Saratov Aviation Plant', 'organisation').phoneticKeys.includes(k))).toBe(
      false,
    );
  });

  it('narrows a large list to a short candidate list that ranks the true match first', () => {
    // A synthetic list of 20 000 listed persons, indexed the way a store would (key -> rows).
    const given = ['Gennady', 'Gennadiy', 'Sergei', 'Ivan', 'Olga', 'Anna', 'Dmitry', 'Pavel', 'Yuri', 'Elena'];
    const surnames = [
      'Timoshenko',
      'Tkachenko',
      'Ivanov',
      'Petrov',
      'Sidorov',
      'Kuznetsov',
      'Smirnov',
      'Popov',
      'Volkov',
      'Morozov',
    ];
    const entities = [];
    for (let i = 0; i < 20_000; i++) {
      const name = `${given[i % given.length]} ${surnames[Math.floor(i / given.length) % surnames.length]}${i >= 100 ? ` ${i}` : ''}`;
      entities.push({ id: `e${i}`, name, schema: 'Person' as const });
    }
    const target = {
      id: 'target',
      name: 'Gennady Nikolayevich TIMCHENKO',
      schema: 'Person' as const,
      birthDates: ['1952'],
    };
    entities.push(target);
    const byPhonetic = new Map<string, typeof entities>();
    for (const e of entities) {
      for (const k of candidateKeys(e.name, 'person').phoneticKeys)
        byPhonetic.set(k, [...(byPhonetic.get(k) ?? []), e]);
    }
    const subject = { name: 'Gennadij Timtsjenko', kind: 'person' as const, birthYear: 1952 };
    const candidates = [
      ...new Set(candidateKeys(subject.name, 'person').phoneticKeys.flatMap((k) => byPhonetic.get(k) ?? [])),
    ];
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.length).toBeLessThanOrEqual(50);
    const ranked = rankCandidates(subject, candidates);
    expect(ranked[0]?.entity.id).toBe('target');
  });
});
