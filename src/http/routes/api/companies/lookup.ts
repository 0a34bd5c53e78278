// GET /api/companies/{orgNumber} — one company; a Norwegian miss is fetched live from brreg.
import { Type } from 'typebox';
import { LookupParams, LookupQuery } from '../../../../contract/company-lookup.ts';
import type { Country } from '../../../../domain/org-number.ts';
import { errorResponses } from '../../../../contract/common.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function lookupRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/companies/:orgNumber',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['companies'],
        summary: 'Look up one company',
        description:
          'Norwegian companies missing from the store are fetched live from Brønnøysundregistrene and stored. Finnish and Swedish companies come from bulk syncs only: a miss is 404. Adds classification labels, county hydration and, with include=context, aggregate context.',
        security: [{ bearer: [] }],
        params: LookupParams,
        querystring: LookupQuery,
        response: { 200: Type.Ref('CompanyLookup'), ...errorResponses(400, 401, 402, 404, 429, 500, 502) },
      },
    },
    async (req, reply) => {
      const country = (req.query.country ?? 'NO') as Country;
      if (req.query.include === 'context') {
        return services.companies.lookup(country, req.params.orgNumber, { context: true, caller: req.caller });
      }
      // Serialised by this route's schema once, then served from the record cache.
      const body = await services.companies.lookupBody(country, req.params.orgNumber, {
        caller: req.caller,
        serialize: (record) => reply.serialize(record) as string,
      });
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}
