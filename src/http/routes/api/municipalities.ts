// GET /api/municipalities — municipalities grouped by county: Norway (default; 2024 structure,
// SSB Klass), Sweden (kommuner by län), Finland (kunnat by maakunta), Denmark (kommuner by region).
import { Type } from 'typebox';
import { errorResponses, StringEnum } from '../../../contract/common.ts';
import type { Api, RouteDeps } from '../../types.ts';
import { MUNICIPALITIES_EXAMPLE } from '../../../contract/examples.ts';
import { countyGroups } from '../../../domain/municipalities/index.ts';
import { invalid } from '../../../errors.ts';

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

export default function municipalitiesRoute(app: Api, { ctx }: RouteDeps) {
  app.get(
    '/api/municipalities',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['reference'],
        summary: 'Municipalities grouped by county',
        security: [{ bearer: [] }],
        querystring: Type.Object({
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
        }),
        response: {
          200: Type.Object({ data: Type.Array(Grouping) }, { examples: [MUNICIPALITIES_EXAMPLE] }),
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => {
      const country = req.query.country ?? 'NO';
      if (req.query.county?.length === 4 && country !== 'DK')
        throw invalid('query.county', 'a county code has two digits (four for a Danish region)');
      if (country === 'NO') return { data: ctx.reference.municipalityGroups(req.query.county) };
      return { data: countyGroups(country, req.query.county) };
    },
  );
}
