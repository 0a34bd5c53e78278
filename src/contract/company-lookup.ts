// GET /api/companies/{orgNumber}: the number (in its country's format) and the registry. The
// answer is the CompanyLookup schema of company.ts.
import { Type } from 'typebox';
import { StringEnum } from './common.ts';

export const LookupParams = Type.Object({
  orgNumber: Type.String({
    minLength: 1,
    maxLength: 20,
    description: 'NO: 9 digits; FI: NNNNNNN-N; SE: 10 digits; DK: 8-digit CVR number',
    examples: ['923609016'],
  }),
});

export const LookupQuery = Type.Object({
  country: Type.Optional(StringEnum(['NO', 'FI', 'SE', 'DK'] as const, { default: 'NO' })),
  include: Type.Optional(StringEnum(['context'] as const)),
});
