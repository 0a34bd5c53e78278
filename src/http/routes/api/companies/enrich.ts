// POST /api/companies/enrich — up to 100 companies in one call (one request against quotas).
import type { Country } from '../../../../domain/org-number.ts';
import { ApiError, type ErrorDetail } from '../../../../errors.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { EnrichBody, EnrichResult } from '../../../../contract/enrich.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function enrichRoute(app: Api, { services }: RouteDeps) {
  app.post(
    '/api/companies/enrich',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['companies'],
        summary: 'Full records for up to 100 companies',
        description:
          'Norwegian misses are fetched live (at most 10 upstream requests in flight per call). Finnish and Swedish misses are not fetched. Numbers the registry could not answer for are listed in `unavailable`; the rest is answered. Duplicates are answered once.',
        security: [{ bearer: [] }],
        body: EnrichBody,
        response: {
          200: EnrichResult,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req) => {
      const { orgNumbers, pairs } = req.body;
      if ((orgNumbers === undefined) === (pairs === undefined)) {
        throw new ApiError('validation_failed', {
          details: [{ path: 'body', message: 'must have exactly one of orgNumbers or pairs' }],
        });
      }
      const details: ErrorDetail[] = [];
      const check = (country: Country, n: string, path: string) => {
        try {
          return services.companies.validate(country, n, path);
        } catch (err) {
          details.push(...((err as ApiError).opts.details ?? []));
          return n;
        }
      };
      const asPairs = orgNumbers
        ? orgNumbers.map((n, i) => ({ orgNumber: check('NO', n, `body.orgNumbers.${i}`), country: 'NO' as Country }))
        : pairs!.map((p, i) => {
            const country = (p.country ?? 'NO') as Country;
            return { orgNumber: check(country, p.orgNumber, `body.pairs.${i}.orgNumber`), country };
          });
      if (details.length) throw new ApiError('validation_failed', { details });
      const { unavailableReasons, ...result } = await services.companies.enrich(asPairs, req.caller);
      // Reasons only when something is unavailable, so a complete answer keeps SPEC's three fields.
      const reasons = result.unavailable.length ? { unavailableReasons } : {};
      if (orgNumbers) {
        return {
          data: result.data,
          notFound: result.notFound.map((p) => p.orgNumber),
          unavailable: result.unavailable.map((p) => p.orgNumber),
          ...reasons,
        };
      }
      return { ...result, ...reasons };
    },
  );
}
