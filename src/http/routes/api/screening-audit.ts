// GET /api/screening/audit — the audit trail of the project's screening calls.
import { callerOf } from '../../plugins/auth.ts';
import { errorResponses } from '../../../contract/common.ts';
import { ScreeningAuditList, ScreeningAuditQuery } from '../../../contract/evidence.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function screeningAuditRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/screening/audit',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['screening'],
        summary: "The audit trail of the project's screening calls",
        description:
          'Every screening call of this project (REST, MCP and inside evidence packs), oldest first: when, which key (prefix), the ' +
          'subject (the company and its screened subjects, or the queries; persons by name and birth year only), the list versions, ' +
          'the threshold, the algorithm and the matches returned. `from` inclusive, `to` exclusive. Kept as long as evidence packs ' +
          '(EVIDENCE_RETENTION_DAYS).',
        security: [{ bearer: [] }],
        querystring: ScreeningAuditQuery,
        response: { 200: ScreeningAuditList, ...errorResponses(400, 401, 402, 429, 500) },
      },
    },
    async (req) => services.screeningAudit.list(callerOf(req), req.query),
  );
}
