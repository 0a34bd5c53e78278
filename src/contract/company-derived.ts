// The fields derived from stored data that Orakel's own clients read: the size class and the
// municipality name (record and list rows), and the signals (lookup and enrich), each with its rule.
import { Type, type TSchema } from 'typebox';

// Nullable scalars as JSON Schema type arrays, as in company.ts (the serializer writes them directly).
function N<T extends TSchema>(t: T) {
  const { type, ...rest } = t as unknown as { type: string };
  return Type.Unsafe<import('typebox').Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** Derived firmographics, on the record and on list rows. */
export const derivedFields = {
  sizeClass: Type.Unsafe<'small' | 'medium' | 'large' | null>({
    type: ['string', 'null'],
    enum: ['small', 'medium', 'large', null],
    description:
      'EU SME definition (Commission Recommendation 2003/361/EC) on the latest employee count and the latest filed ' +
      'revenue in EUR (fixed rates, ECB 2024 annual averages: 11.629 NOK, 11.433 SEK, 7.4589 DKK per EUR): fewer than 50 ' +
      'employees and at most EUR 10 m -> small (micro included), fewer than 250 and at most EUR 50 m -> medium, else ' +
      'large; the larger class of the two figures decides, one alone when the other is unknown; null when neither is known',
  }),
  businessAddressMuni: N(
    Type.String({
      description:
        "Name of the business address's municipality (the reference list's name for businessAddressMuniNo, else the registry's)",
    }),
  ),
};

const Explanation = Type.Object({
  rule: Type.String(),
  inputs: Type.Record(Type.String(), Type.Unsafe<number | boolean | string | null>({}), {
    description: 'The values the rule read',
  }),
  year: N(Type.Integer({ description: 'The filed or register year the inputs are from' })),
});

export const Signals = Type.Object(
  {
    financialHealthScore: N(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description:
          'Points from the latest two filed years (company accounts where filed): equity ratio 30 (0 % -> 0, 40 % -> 30, ' +
          'linear), profit margin 25 (-10 % -> 0, +10 % -> 25), revenue change 20 (-20 % -> 0, +20 % -> 20), positive ' +
          'equity 15, a filed period that ended at most 18 months ago 10; an input that is missing scores half its points. ' +
          'Capped at 10 when bankrupt, 20 in liquidation or forced dissolution, 30 in debt negotiation. null without a filed year',
      }),
    ),
    revenueCagr: N(
      Type.Number({
        description:
          'Compound annual revenue growth from the oldest to the latest of up to the last five filed years, a fraction ' +
          '(0.19 = 19 %); null with fewer than two years or a non-positive oldest revenue',
      }),
    ),
    ownershipConcentrationPct: N(
      Type.Number({
        description:
          "The largest owner's share (%) in the latest register year, all share classes. NO: Aksjonærregisteret. DK: CVR's " +
          "owner register, which records each legal owner's share as a band: the largest band's lower bound (e.g. 50 for " +
          '50–66.67 %), said so in the explanation (inputs.bandHighPct, year null: the register is current). FI, SE: null (the ' +
          'registries publish no shareholders). null without register data',
      }),
    ),
    isForeignOwned: N(
      Type.Boolean({
        description:
          "Owners registered outside the company's country hold more than 50 % (NO: Aksjonærregisteret's country code). " +
          'DK: null (the CVR owners stored carry no country); FI, SE: null (no shareholder register); null without register data',
      }),
    ),
    isInDebtNegotiation: N(
      Type.Boolean({
        description:
          'The registry shows reconstruction or debt negotiation: NO brreg underRekonstruksjonsforhandlingDato; FI PRH open ' +
          'situation SANE (yrityssaneeraus); SE Bolagsverket pending företagsrekonstruktion; DK CVR status REKONSTRUKTION. ' +
          'null where the source states no status',
      }),
    ),
    explanation: Type.Object(
      {
        financialHealthScore: Type.Optional(Explanation),
        revenueCagr: Type.Optional(Explanation),
        ownershipConcentrationPct: Type.Optional(Explanation),
        isForeignOwned: Type.Optional(Explanation),
        isInDebtNegotiation: Type.Optional(Explanation),
      },
      { description: 'For each non-null signal: the rule, the inputs it read and their year' },
    ),
  },
  {
    $id: 'Signals',
    description: 'Computed from stored data by fixed rules (lookup and enrich); each null when its inputs are missing',
  },
);
