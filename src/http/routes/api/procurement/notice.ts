// GET /api/procurement/{noticeId} — one procurement notice by its Doffin id, TED publication
// number or eForms notice id.
import { Type } from 'typebox';
import { errorResponses } from '../../../../contract/common.ts';
import { NoticeParams } from '../../../../contract/procurement.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function procurementNoticeRoute(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/procurement/:noticeId',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['procurement'],
        summary: 'One procurement notice',
        security: [{ bearer: [] }],
        params: NoticeParams,
        response: { 200: Type.Ref('ProcurementNotice'), ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req) => services.procurement.get(req.params.noticeId),
  );
}
