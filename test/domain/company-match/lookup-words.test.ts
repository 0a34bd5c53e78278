// The lookup plan of a match query (security issue 52, item 3): words of other scripts are looked
// up by their transliteration, every word folds as the store folds it, none folds to nothing,
// repeated words count once, at most six words, the longest first.
import { describe, expect, it } from 'vitest';
import { foldedWords, lookupPlan, MAX_LOOKUP_WORDS, retrievalKey } from '../../../src/domain/company-match/index.ts';

const plan = (name: string) => lookupPlan(retrievalKey(name));

describe('lookupPlan', () => {
  it('looks a name of another script up by its transliteration, ranked against it too', () => {
    expect(plan('ООО Ромашка').words.map((w) => w.folded)).toEqual(['romashka', 'ooo']);
    expect(plan('ООО Ромашка').key).toBe('ooo romashka');
    expect(plan('Ελληνική Ναυτιλιακή').words.map((w) => w.folded)).toEqual(['naytiliaki', 'elliniki']);
    // Latin words keep their letters as written (the store's name_norm keeps them too).
    expect(plan('Ромашка Sjøbygg').key).toBe('romashka sjøbygg');
    expect(plan('Ромашка Sjøbygg').words).toEqual([
      { folded: 'romashka', written: 'romashka' },
      { folded: 'sjobygg', written: 'sjøbygg' },
    ]);
  });

  it('never gives a word that folds to nothing, a repeated word, or more than six words', () => {
    const names = [
      'bygg bygg bygg Bygg BYGG',
      'a b c d e f g h i j k l m n o p',
      Array.from({ length: 60 }, (_, i) => `ord${i}`).join(' '),
      'Общество с ограниченной ответственностью Северный Торговый Дом Холдинг Инвест Строй',
      '✈✈✈ 日本 ☃',
      'Straße Ærlig Aasen',
    ];
    for (const name of names) {
      const { words, key } = plan(name);
      const folded = words.map((w) => w.folded);
      expect(folded.length, name).toBeLessThanOrEqual(MAX_LOOKUP_WORDS);
      expect(new Set(folded).size, name).toBe(folded.length);
      for (const w of words) {
        expect(w.folded, name).toMatch(/^[a-z0-9]+$/);
        expect(foldedWords(w.written), name).toContain(w.folded);
      }
      expect(key.length, name).toBeLessThanOrEqual(120);
    }
    expect(plan('bygg bygg bygg Bygg BYGG').words.map((w) => w.folded)).toEqual(['bygg']);
  });

  it('keeps the longest words, in the order of the name among equals', () => {
    const { words } = plan('a nordlys bb eiendomsforvaltning c vest holding x y sjo');
    expect(words.map((w) => w.folded)).toEqual(['eiendomsforvaltning', 'nordlys', 'holding', 'vest', 'sjo', 'bb']);
  });
});
