// Failure classes of cross-script screening (issue 27, matcher 2.2.0), each with examples
// written for this file (not taken from the name_bench file the matcher is evaluated on):
// organisation names listed both translated and transliterated, and East Slavic person names
// with and without a patronymic.
import { describe, expect, it } from 'vitest';
import { ALGORITHM, DEFAULT_THRESHOLD } from '../../../src/domain/screening/rank.ts';
import { scoreMatch } from '../../../src/domain/screening/score.ts';
import type { NameKind, SanctionSchema } from '../../../src/domain/screening/types.ts';

const score = (query: string, listed: string, kind: NameKind = 'person') => {
  const schema: SanctionSchema = kind === 'person' ? 'Person' : 'Company';
  return scoreMatch({ name: query, kind }, { name: listed, schema });
};
const hit = (q: string, l: string, kind?: NameKind) => score(q, l, kind).score >= DEFAULT_THRESHOLD;
const org = (q: string, l: string) => hit(q, l, 'organisation');

describe('translated organisation names (Russian/Ukrainian vocabulary and place adjectives)', () => {
  it('matches an English name with the Cyrillic or transliterated name it translates', () => {
    expect(org('Kostroma Machine-Building Plant', 'АО «Костромской машиностроительный завод»')).toBe(true);
    expect(org('Saratov Aviation Plant', 'ПАО «Саратовский авиационный завод»')).toBe(true);
    expect(org('OAO Kurganskiy Mashinostroitelnyy Zavod', 'Kurgan Machine Building Plant JSC')).toBe(true);
    expect(
      org('Tomsk Research Institute of Oil and Gas', 'Томский научно-исследовательский институт нефти и газа'),
    ).toBe(true);
  });

  it('a different place or a different industry is still another organisation', () => {
    expect(org('Saratov Aviation Plant', 'Самарский авиационный завод')).toBe(false);
    expect(org('Kurgan Machine-Building Plant', 'Курганский химический завод')).toBe(false);
    expect(org('Tomsk Research Institute of Oil and Gas', 'Томский научно-исследовательский институт химии')).toBe(
      false,
    );
  });

  it('pairs a word only with its translation across the two languages, and only in organisation names', () => {
    // Two English words of one meaning are not a translation of each other.
    const english = score('Lindvik Works', 'Lindvik Factory', 'organisation');
    expect(english.score).toBeLessThan(DEFAULT_THRESHOLD);
    expect(english.explanation.tokens.map((t) => t.how)).not.toContain('translated');
    // A person called Zavod is not a person called Plant.
    expect(hit('Ivan Zavod', 'Ivan Plant')).toBe(false);
  });

  it('explains each translated pair and keeps the place adjective apart from a spelling', () => {
    const r = score('Kostroma Machine-Building Plant', 'Костромской машиностроительный завод', 'organisation');
    expect(r.matchType).not.toBe('exact');
    expect(r.explanation.tokens).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ query: 'kostroma', candidate: 'kostromskoy', how: 'translated' }),
        expect.objectContaining({ query: 'machinebuilding', candidate: 'mashinostroitelnyy', how: 'translated' }),
        expect.objectContaining({ query: 'plant', candidate: 'zavod', how: 'translated' }),
      ]),
    );
    expect(ALGORITHM.version).toBe('2.3.0');
  });

  it('removes the Soviet unitary-enterprise forms in either language', () => {
    const r = score('ФГУП «Северный Канал»', 'Severny Kanal FSUE', 'organisation');
    expect(r.explanation.nameSimilarity).toBe(1);
    expect(org('Federal State Unitary Enterprise Severny Kanal', 'ФГУП Северный Канал')).toBe(true);
  });
});

describe('East Slavic patronymics across scripts and listing styles', () => {
  it('a patronymic present in one name and absent or an initial in the other costs little', () => {
    expect(hit('Тимофей Андреевич Морозов', 'Timofei Morozov')).toBe(true);
    expect(hit('Морозов Тимофей Андреевич', 'Timofey A. Morozov')).toBe(true);
    expect(hit('Дарья Олеговна Зайцева', 'Darya Zaytseva')).toBe(true);
    expect(hit('Тарас Богданович Мельник', 'Taras Melnyk')).toBe(true);
  });

  it('reads a list that marks the surname in capitals and puts it first ("MOROZOV Timofei Andreyevich")', () => {
    const r = score('Timofey Morozov', 'MOROZOV Timofei Andreyevich');
    expect(r.score).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(r.explanation.adjustments.map((a) => a.feature)).not.toContain('nameOrder');
    expect(r.explanation.unmatched.candidate).toEqual(['andreyevich']);
    // Unmarked names still keep the swap guard: within one script, order is all there is.
    expect(hit('Morozov Timofey', 'Timofei Morozov')).toBe(false);
  });

  it("different patronymics, or a given name that is the other name's father: other people", () => {
    expect(hit('Тимофей Андреевич Морозов', 'Timofey Pavlovich Morozov')).toBe(false);
    // Andrey Morozov is the father of Timofei Andreyevich Morozov, not the same man.
    expect(hit('Andrey Morozov', 'Timofei Andreyevich Morozov')).toBe(false);
    expect(hit('Andrey Morozov', 'MOROZOV Timofei Andreyevich')).toBe(false);
    // A spelling of the same patronymic is still the same patronymic.
    expect(hit('Timofei Andreevich Morozov', 'Timofey Andreyevich Morozov')).toBe(true);
  });
});
