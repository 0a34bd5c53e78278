// POST /api/push/{destinationName} — full records of up to 100 companies, sent to one of the
// project's destinations in exactly one request.
import { callerOf } from '../../plugins/auth.ts';
import { ApiError } from '../../../errors.ts';
import { errorResponses } from '../../../contract/common.ts';
import { PushBody, PushParams, PushResult } from '../../../contract/destinations.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function pushRoute(app: Api, { services }: RouteDeps) {
  app.post(
    '/api/push/:destinationName',
    {
      config: { auth: 'key' },
      // Before validation and the quota charge: a tier that cannot push is told so at once,
      // and the refusal costs no quota.
      preValidation: async (req) => {
        if (!callerOf(req).limits.canPush) throw new ApiError('push_not_allowed');
      },
      schema: {
        tags: ['push'],
        summary: 'Push companies to a destination',
        description:
          "Loads the full records (financials, roles, subUnits, licenses; Norwegian misses fetched live) and sends `{ companies: [...] }` in one request with `Content-Type: application/json` plus the configured headers, signed when the destination has a signing secret. Deadline 10 s, no redirects followed, no retry. A failed delivery still answers 200: the batch is in `errors[]` with a fixed class and never the receiver's answer. Counts as one request against quotas. Free-tier keys cannot push.",
        security: [{ bearer: [] }],
        params: PushParams,
        body: PushBody,
        response: { 200: PushResult, ...errorResponses(400, 401, 402, 403, 404, 409, 429, 500) },
      },
    },
    async (req) => services.push.push(callerOf(req), req.params.destinationName, req.body.orgNumbers),
  );
}
