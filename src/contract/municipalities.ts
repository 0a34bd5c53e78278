// GET /api/municipalities: the municipalities of a country grouped by county (region in Denmark).
import { Type } from 'typebox';
import { StringEnum } from './common.ts';
import { MUNICIPALITIES_EXAMPLE } from './examples.ts';

export const MunicipalitiesQuery = Type.Object({
  county: Type.Optional(
    Type.String({
      pattern: '^[0-9]{2}([0-9]{2})?$',
      description: 'County code, zero-padded: two digits (e.g. 03); a Danish region has four (e.g. 1084)',
      examples: ['03'],
    }),
  ),
  country: Type.Optional(
    StringEnum(['NO', 'SE', 'FI', 'DK'] as const, {
      default: 'NO',
      description: 'NO (default), SE, FI or DK',
    }),
  ),
});

const Grouping = Type.Object({
  countyCode: Type.String({ pattern: '^[0-9]{2,4}$', description: 'NO/SE/FI 2 digits, DK 4 (1081–1085)' }),
  countyName: Type.String(),
  municipalities: Type.Array(
    Type.Object({
      code: Type.String({ pattern: '^[0-9]{3,4}$', description: 'NO/SE 4 digits, FI/DK 3' }),
      name: Type.String(),
    }),
  ),
});

export const Municipalities = Type.Object({ data: Type.Array(Grouping) }, { examples: [MUNICIPALITIES_EXAMPLE] });
