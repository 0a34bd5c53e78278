// GET /api/companies/{orgNumber} — one company; a Norwegian miss is fetched live from brreg.
import { Type } from 'typebox';
import type { Country } from '../../../../domain/org-number.ts';
import { errorResponses, StringEnum } from '../../../../contract/common.ts';
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
        params: Type.Object({
          orgNumber: Type.String({
            minLength: 1,
            maxLength: 20,
            description: 'NO: 9 digits; FI: NNNNNNN-N; SE: 10 digits; DK: 8-digit CVR number',
            examples: ['923609016'],
          }),
        }),
        querystring: Type.Object({
          country: Type.Optional(StringEnum(['NO', 'FI', 'SE', 'DK'] as const, { default: 'NO' })),
          include: Type.Optional(StringEnum(['context'] as const)),
        }),
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
