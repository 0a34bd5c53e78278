// What a guard is, in a leaf file that guards.ts and word-guards.ts both use (so neither imports
// the other back).

/** The name similarity a guard caps at: with NAME_WEIGHT 0.9 it scores 0.72, below the default threshold. */
export const GUARD_CAP = 0.8;

export interface Guard {
  feature: 'surname' | 'nameOrder' | 'patronymic' | 'legalForm' | 'shortReading' | 'derivedWord' | 'substitution';
  cap: number;
  reason: string;
}
