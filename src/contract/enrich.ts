// POST /api/companies/enrich: up to 100 numbers (or country pairs) in, full records out, with
// the numbers not found and those the registry could not answer for.
import { Type } from 'typebox';
import { UNAVAILABLE_REASONS } from '../domain/unavailable-reasons.ts';
import { StringEnum } from './common.ts';
import { ENRICH_BODY_EXAMPLES, ENRICH_RESULT_EXAMPLE } from './examples.ts';

const Pair = Type.Object({ orgNumber: Type.String(), country: StringEnum(['NO', 'FI', 'SE', 'DK'] as const) });

export const EnrichBody = Type.Object(
  {
    orgNumbers: Type.Optional(
      Type.Array(Type.String(), { minItems: 1, maxItems: 100, description: '9-digit Norwegian numbers' }),
    ),
    pairs: Type.Optional(
      Type.Array(
        Type.Object(
          {
            orgNumber: Type.String(),
            country: Type.Optional(StringEnum(['NO', 'FI', 'SE', 'DK'] as const, { default: 'NO' })),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          maxItems: 100,
          description: 'Each country in its own format: NO 9 digits, FI NNNNNNN-N, SE 10 digits',
        },
      ),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of orgNumbers or pairs', examples: ENRICH_BODY_EXAMPLES },
);

export const EnrichResult = Type.Object(
  {
    data: Type.Array(Type.Ref('CompanyRecord')),
    notFound: Type.Union([Type.Array(Type.String()), Type.Array(Pair)], {
      description: 'string[] for orgNumbers, {orgNumber, country}[] for pairs',
    }),
    unavailable: Type.Union([Type.Array(Type.String()), Type.Array(Pair)]),
    unavailableReasons: Type.Optional(
      Type.Record(Type.String(), StringEnum(UNAVAILABLE_REASONS), {
        description:
          'Why each unavailable number is (by org number; only when `unavailable` is not empty): `upstream_error`, `upstream_circuit_open` and `upstream_rate_limited` mean retry later; `live_fetch_budget` means the key spent its daily budget of live fetches.',
      }),
    ),
  },
  { examples: [ENRICH_RESULT_EXAMPLE] },
);
