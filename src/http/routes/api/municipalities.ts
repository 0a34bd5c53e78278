// GET /api/municipalities — Norwegian municipalities grouped by county (2024 structure).
import { Type } from 'typebox';
import { errorResponses } from '../../../contract/common.ts';
import type { Api, RouteDeps } from '../../types.ts';
import { MUNICIPALITIES_EXAMPLE } from '../../../contract/examples.ts';

const Grouping = Type.Object({
  countyCode: Type.String({ pattern: '^[0-9]{2}$' }),
  countyName: Type.String(),
  municipalities: Type.Array(Type.Object({ code: Type.String({ pattern: '^[0-9]{4}$' }), name: Type.String() })),
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
              pattern: '^[0-9]{2}$',
              description: 'Two-digit county code, zero-padded (e.g. 03)',
              examples: ['03'],
            }),
          ),
        }),
        response: {
          200: Type.Object({ data: Type.Array(Grouping) }, { examples: [MUNICIPALITIES_EXAMPLE] }),
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => ({ data: ctx.reference.municipalityGroups(req.query.county) }),
  );
}
