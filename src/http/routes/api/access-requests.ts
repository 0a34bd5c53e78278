// POST /api/access-requests — ask for a higher tier (public). Shares the per-IP signup window
// with key registration.
import { Type } from 'typebox';
import { errorResponses, StringEnum } from '../../../contract/common.ts';
import type { Api, RouteDeps } from '../../types.ts';
import { ACCESS_REQUEST_BODY_EXAMPLE, ACCESS_REQUEST_CREATED_EXAMPLE } from '../../../contract/examples.ts';

const Body = Type.Object(
  {
    projectName: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    email: Type.String({ format: 'email', maxLength: 320 }),
    organisation: Type.Optional(Type.String({ maxLength: 200 })),
    requestedTier: StringEnum(['pro', 'enterprise'] as const),
    message: Type.Optional(Type.String({ maxLength: 2000 })),
    website: Type.Optional(Type.String({ maxLength: 2048, description: 'Honeypot: leave empty' })),
  },
  { additionalProperties: false, examples: [ACCESS_REQUEST_BODY_EXAMPLE] },
);

export default function accessRequestRoute(app: Api, { services }: RouteDeps) {
  app.post(
    '/api/access-requests',
    {
      schema: {
        tags: ['keys'],
        summary: 'Request access to a higher tier',
        body: Body,
        response: {
          201: Type.Object(
            { id: Type.String(), status: Type.String(), createdAt: Type.String({ format: 'date-time' }) },
            { examples: [ACCESS_REQUEST_CREATED_EXAMPLE] },
          ),
          200: Type.Object({ success: Type.Boolean() }),
          ...errorResponses(400, 429, 500),
        },
      },
    },
    async (req, reply) => {
      if (req.body.website && req.body.website.trim() !== '') return reply.status(200).send({ success: true });
      return reply.status(201).send(await services.keys.requestAccess(req.ip, req.body));
    },
  );
}
