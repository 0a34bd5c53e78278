// GET /api/keys/usage — the caller's limits, usage and reset times (not counted as usage).
import { Type } from 'typebox';
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { UsageLimits } from '../../../../contract/keys.ts';
import type { Api, RouteDeps } from '../../../types.ts';
import { KEY_USAGE_EXAMPLE } from '../../../../contract/examples.ts';

const Remaining = Type.Union([Type.Integer(), Type.Null()], { description: 'null when unlimited' });

const Usage = Type.Object(
  {
    projectName: Type.String(),
    tier: Type.String(),
    keyPrefix: Type.String(),
    limits: UsageLimits,
    usage: Type.Object({
      today: Type.Integer(),
      thisMonth: Type.Integer(),
      total: Type.Integer(),
      dailyRemaining: Remaining,
      monthlyRemaining: Remaining,
    }),
    resets: Type.Object({
      daily: Type.String({ format: 'date-time', description: 'Next UTC midnight' }),
      monthly: Type.String({ format: 'date-time', description: 'First of next month, UTC' }),
    }),
  },
  { examples: [KEY_USAGE_EXAMPLE] },
);

export default function usageRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/keys/usage',
    {
      config: { auth: 'key', quota: false },
      schema: {
        tags: ['keys'],
        summary: 'Usage and limits of the presented key',
        security: [{ bearer: [] }],
        response: { 200: Usage, ...errorResponses(401, 402, 429, 500) },
      },
    },
    async (req) => services.keys.usage(callerOf(req)),
  );
}
