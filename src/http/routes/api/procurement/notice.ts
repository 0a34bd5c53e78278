// GET /api/procurement/{noticeId} — one procurement notice by its Doffin id, TED publication
// number or eForms notice id.
import { Type } from 'typebox';
import { errorResponses } from '../../../../contract/common.ts';
import type { Api, RouteDeps } from '../../../types.ts';

const Params = Type.Object({
  noticeId: Type.String({
    pattern: '^[0-9A-Za-z-]{6,64}$',
    description: 'Doffin id (2026-107304), TED publication number (712345-2026) or eForms notice id (a UUID)',
  }),
});

export default function procurementNoticeRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/procurement/:noticeId',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['procurement'],
        summary: 'One procurement notice',
        security: [{ bearer: [] }],
        params: Params,
        response: { 200: Type.Ref('ProcurementNotice'), ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.procurement.get(req.params.noticeId),
  );
}
