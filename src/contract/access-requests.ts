// POST /api/access-requests: a request for a higher tier (public).
import { Type } from 'typebox';
import { StringEnum } from './common.ts';
import { ACCESS_REQUEST_BODY_EXAMPLE, ACCESS_REQUEST_CREATED_EXAMPLE } from './examples.ts';

export const AccessRequestBody = Type.Object(
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

export const AccessRequestCreated = Type.Object(
  { id: Type.String(), status: Type.String(), createdAt: Type.String({ format: 'date-time' }) },
  { examples: [ACCESS_REQUEST_CREATED_EXAMPLE] },
);

/** The honeypot field was filled: nothing is stored. */
export const AccessRequestHoneypot = Type.Object({ success: Type.Boolean() });
