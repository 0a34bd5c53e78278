// Schemas of the key resources.
import { Type } from 'typebox';
import { KEY_LIMITS_EXAMPLE, KEY_REGISTER_BODY_EXAMPLE } from './examples.ts';

const Limit = (description: string) =>
  Type.Union([Type.Integer(), Type.Null()], { description: `${description}; null = unlimited` });

export const KeyLimits = Type.Object(
  {
    rateLimitPerMinute: Limit('Requests per minute'),
    dailyLimit: Limit('Requests per UTC day'),
    monthlyLimit: Limit('Requests per UTC month'),
    maxPageSize: Type.Integer({ description: 'Largest page a list endpoint returns' }),
  },
  { $id: 'KeyLimits', examples: [KEY_LIMITS_EXAMPLE] },
);

export const UsageLimits = Type.Object({
  rateLimitPerMinute: Limit('Requests per minute'),
  dailyLimit: Limit('Requests per UTC day'),
  monthlyLimit: Limit('Requests per UTC month'),
  maxPageSize: Type.Integer(),
  canPush: Type.Boolean(),
  requireFilterOnSearch: Type.Boolean(),
});

/** POST /api/keys/register, and the consent page's "register a new project" form. */
export const KeyRegisterBody = Type.Object(
  {
    projectName: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '\\S',
      description: 'Unique among active keys (case-insensitive)',
    }),
    email: Type.String({ format: 'email', maxLength: 320, description: 'Receives the setup link' }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    website: Type.Optional(Type.String({ maxLength: 2048, description: 'Honeypot: leave empty' })),
  },
  { additionalProperties: false, examples: [KEY_REGISTER_BODY_EXAMPLE] },
);
