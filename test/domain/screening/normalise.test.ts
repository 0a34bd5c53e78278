import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseName } from '../../../src/domain/screening/normalise.ts';

describe('normaliseName', () => {
  it('transliterates Nordic letters and drops the legal form of an organisation', () => {
    const n = normaliseName('Ærø  Fjordkraft ÅS', 'organisation');
    expect(n.display).toBe('Ærø Fjordkraft ÅS');
    expect(n.tokens).toEqual(['aero', 'fjordkraft']);
    expect(n.legalForms).toEqual(['as']);
  });

  it('gives Cyrillic and Latin spellings of a company with different legal forms one key', () => {
    const cyr = normaliseName('ПАО Газпром нефть', 'organisation');
    const lat = normaliseName('Gazprom Neft PJSC', 'organisation');
    expect(cyr.tokens).toEqual(['gazprom', 'neft']);
    expect(cyr.legalForms).toEqual(['pao']);
    expect(lat.legalForms).toEqual(['pjsc']);
    expect(cyr.sortedKey).toBe(lat.sortedKey);
  });

  it('recognises long and dotted legal forms anywhere they are unambiguous', () => {
    expect(normaliseName('PUBLIC JOINT STOCK COMPANY SBERBANK OF RUSSIA', 'organisation').tokens).toEqual([
      'sberbank',
      'russia',
    ]);
    expect(normaliseName('Nordic Fjellkraft A/S', 'organisation').tokens).toEqual(['nordic', 'fjellkraft']);
    expect(normaliseName('Общество с ограниченной ответственностью “Интер Тобако”', 'organisation').tokens).toEqual([
      'inter',
      'tobako',
    ]);
    expect(normaliseName('MMC Norilsk Nickel PJSC', 'organisation').tokens).toEqual(['mmc', 'norilsk', 'nickel']);
  });

  it('keeps a name that is nothing but a legal form, and never strips legal forms from persons', () => {
    expect(normaliseName('AS', 'organisation').tokens).toEqual(['as']);
    expect(normaliseName('Kjetil Ås', 'person').tokens).toEqual(['kjetil', 'as']);
  });

  it('sorts tokens so that order and a "SURNAME, Given" comma do not matter', () => {
    const a = normaliseName('PUTIN, Vladimir', 'person');
    const b = normaliseName('Vladimir Putin', 'person');
    expect(a.tokens).toEqual(['vladimir', 'putin']);
    expect(a.sortedKey).toBe(b.sortedKey);
    expect(normaliseName('Bank Rossiya', 'organisation').sortedKey).toBe(
      normaliseName('Rossiya Bank JSC', 'organisation').sortedKey,
    );
  });

  it('folds spelled-out and transliterated variants to one key', () => {
    const keys = ['Lars Jørgensen', 'Lars JOERGENSEN', 'Lars Jorgensen'].map(
      (n) => normaliseName(n, 'person').sortedKey,
    );
    expect(new Set(keys).size).toBe(1);
    expect(normaliseName('Åse Müller', 'person').sortedKey).toBe(normaliseName('Aase Mueller', 'person').sortedKey);
    expect(normaliseName('Jevgenij Prigozjin', 'person').sortedKey).toBe(
      normaliseName('Yevgeniy Prigozhin', 'person').sortedKey,
    );
    expect(normaliseName('Aleksandr', 'person').sortedKey).not.toBe(normaliseName('Alexander', 'person').sortedKey);
  });

  it('drops honorifics and punctuation, and removes apostrophes without splitting', () => {
    expect(normaliseName('Dr. Ahmad Hassan', 'person').tokens).toEqual(['ahmad', 'hassan']);
    expect(normaliseName('Sheikh Mohammed Rahman', 'person').tokens).toEqual(['mohammed', 'rahman']);
    expect(normaliseName("Mu'ammar al-Qadhafi", 'person').tokens).toEqual(['muammar', 'al', 'qadhafi']);
    expect(normaliseName('Mullah', 'person').tokens).toEqual(['mullah']);
  });

  it('gives phonetic keys that agree for transliterations', () => {
    const a = normaliseName('Mohammed', 'person').phoneticKeys;
    const b = normaliseName('Muhammad', 'person').phoneticKeys;
    expect(a.some((k) => b.includes(k))).toBe(true);
  });

  it('is stable: re-normalising the tokens of a person name gives the same key (property)', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyzæøåäöüßþðłабвгджзийклмнопрстуфхцчшщыэюя';
    const word = fc.string({
      unit: fc.constantFrom(...letters, ...letters.toUpperCase()),
      minLength: 1,
      maxLength: 10,
    });
    const sep = fc.constantFrom(' ', '-', ', ', '. ', "'", '  ');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, sep), { minLength: 1, maxLength: 5 }), (parts) => {
        const name = parts.map(([w, s]) => w + s).join('');
        const n = normaliseName(name, 'person');
        for (const t of n.tokens) expect(t).toMatch(/^[a-z0-9]+$/);
        expect(n.sortedKey.split(' ')).toEqual([...n.sortedKey.split(' ')].sort());
        if (n.tokens.length > 0) expect(normaliseName(n.tokens.join(' '), 'person').sortedKey).toBe(n.sortedKey);
      }),
    );
  });
});
