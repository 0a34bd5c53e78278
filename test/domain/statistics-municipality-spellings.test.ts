// The stored spellings of a municipality that market context's store aggregates count by: the
// inverse of municipalityOfAddress, so a company mapped to a municipality is counted in it.
import { describe, expect, it } from 'vitest';
import { municipalityOfAddress, storedSpellingsOf } from '../../src/domain/municipalities/index.ts';

describe('storedSpellingsOf', () => {
  it('SE: the kommun code and its name as the list and Bolagsverket (upper case) write it', () => {
    expect(storedSpellingsOf('SE', '1480')).toEqual({ codes: ['1480'], towns: ['Göteborg', 'GÖTEBORG', 'göteborg'] });
    // Every spelling maps back to the kommun.
    for (const town of storedSpellingsOf('SE', '1480').towns)
      expect(municipalityOfAddress('SE', null, town)).toBe('1480');
  });

  it('DK: the three-digit kommunekode and the four digits CVR and DAWA write', () => {
    const { codes, towns } = storedSpellingsOf('DK', '101');
    expect(codes).toEqual(['101', '0101']);
    expect(towns).toEqual([]);
    for (const code of codes) expect(municipalityOfAddress('DK', code, null)).toBe('101');
  });

  it('NO and FI: the code alone (their registries give it)', () => {
    expect(storedSpellingsOf('NO', '0301')).toEqual({ codes: ['0301'], towns: [] });
    expect(storedSpellingsOf('FI', '091')).toEqual({ codes: ['091'], towns: [] });
  });
});
