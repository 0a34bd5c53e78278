// GET /api/municipalities — municipalities grouped by county: Norway (default; 2024 structure,
// SSB Klass), Sweden (kommuner by län), Finland (kunnat by maakunta), Denmark (kommuner by region).
import { errorResponses } from '../../../contract/common.ts';
import { Municipalities, MunicipalitiesQuery } from '../../../contract/municipalities.ts';
import type { Api, RouteDeps } from '../../types.ts';
import { countyGroups } from '../../../domain/municipalities/index.ts';
import { invalid } from '../../../errors.ts';

export default function municipalitiesRoute(app: Api, { ctx }: RouteDeps) {
  app.get(
    '/api/municipalities',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['reference'],
        summary: 'Municipalities grouped by county',
        security: [{ bearer: [] }],
        querystring: MunicipalitiesQuery,
        response: {
          200: Municipalities,
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
