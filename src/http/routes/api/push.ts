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
          "Loads the full records (financials, roles, subUnits, licenses; Norwegian misses fetched live) of `orgNumbers` (Norwegian) or `pairs` (any Nordic country). A `webhook` destination gets `{ companies: [...] }` in one request with `Content-Type: application/json` plus the configured headers, signed when the destination has a signing secret; deadline 10 s, no redirects followed, no retry; a failed delivery still answers 200 with the batch in `errors[]` (a fixed class, never the receiver's answer). A `hubspot` or `attio` destination gets an upsert keyed by the organisation number (the same company pushed twice is one CRM record); the result counts `created`, `updated`, `skipped` (companies that declined advertising, unless the destination allows them) and `failed`, with one `errors[]` entry per company not written. A CRM that stays down or refuses the token answers 502 `crm_unavailable`. Counts as one request against quotas. Free-tier keys cannot push.",
        security: [{ bearer: [] }],
        params: PushParams,
        body: PushBody,
        response: { 200: PushResult, ...errorResponses(400, 401, 402, 403, 404, 409, 429, 500, 502) },
      },
    },
    async (req) => services.push.push(callerOf(req), req.params.destinationName, req.body),
  );
}
