// GET /api/evidence (the project's packs) and GET /api/evidence/{id} (the signed pack, or with
// .pdf its PDF).
import { callerOf } from '../../plugins/auth.ts';
import { errorResponses } from '../../../contract/common.ts';
import { EvidenceIdParams, EvidenceList, EvidenceListQuery, EvidencePack } from '../../../contract/evidence.ts';
import type { Api, RouteDeps } from '../../types.ts';

const secured = { tags: ['evidence'], security: [{ bearer: [] }] };

export default function evidenceRoutes(app: Api, { services }: RouteDeps) {
  app.get(
    '/api/evidence',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: "The project's evidence packs, oldest first",
        description:
          'Filter by `orgNumber` and creation time (`from` inclusive, `to` exclusive). Each row has the verdict lines and the hash.',
        querystring: EvidenceListQuery,
        response: { 200: EvidenceList, ...errorResponses(400, 401, 402, 429, 500) },
      },
    },
    async (req) => services.evidence.list(callerOf(req), req.query),
  );

  app.get(
    '/api/evidence/:id',
    {
      config: { auth: 'key' },
      schema: {
        ...secured,
        summary: 'One evidence pack (JSON), or its PDF with .pdf',
        description:
          "`/api/evidence/{id}`: the signed pack, byte for byte as created. `/api/evidence/{id}.pdf`: the same pack for people: a first page with the verdict lines (registry status, screening hits, owners), then the details, with the hash and signature on every page. Another project's pack answers 404.",
        params: EvidenceIdParams,
        produces: ['application/json', 'application/pdf'],
        response: { 200: EvidencePack, ...errorResponses(400, 401, 402, 404, 429, 500) },
      },
    },
    async (req, reply) => {
      const { contentType, body } = await services.evidence.read(callerOf(req), req.params.id);
      // The stored text (or the PDF) as it is: a string or Buffer skips the schema's serializer.
      return reply.type(contentType).send(body as never);
    },
  );
}
