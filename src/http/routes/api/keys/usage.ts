// GET /api/keys/usage — the caller's limits, usage, reset times and the last 30 days (not counted
// as usage).
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { KeyUsage } from '../../../../contract/keys.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function usageRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/keys/usage',
    {
      config: { auth: 'key', quota: false },
      schema: {
        tags: ['keys'],
        summary: 'Usage and limits of the presented key',
        security: [{ bearer: [] }],
        response: { 200: KeyUsage, ...errorResponses(401, 402, 429, 500) },
      },
    },
    async (req) => services.keys.usageWithHistory(callerOf(req)),
  );
}
