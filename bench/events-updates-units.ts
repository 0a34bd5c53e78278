// The registry units of bench/events-updates.ts: the bench stores them before round one and its
// upstream process (events-updates-upstream.ts) serves them, so both make them here.
import { generateCompany } from '../src/sources/brreg/generate.ts';
import type { BrregEnhet } from '../src/sources/brreg/types.ts';

/**
 * `total` generated units, the same on every call. Live only: a deleted unit is served by lookup,
 * not search (a different path).
 */
export const benchUnits = (total: number): BrregEnhet[] =>
  Array.from({ length: total }, (_, i) => ({
    ...generateCompany(i, 2626).enhet,
    slettedato: undefined,
    konkurs: false,
  }));
