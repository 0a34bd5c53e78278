// Schemas of the key resources.
import { Type } from 'typebox';
import {
  KEY_CREATED_EXAMPLE,
  KEY_LIMITS_EXAMPLE,
  KEY_REGISTER_BODY_EXAMPLE,
  KEY_ROTATED_EXAMPLE,
  KEY_USAGE_EXAMPLE,
} from './examples.ts';

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

/** POST /api/keys/register: the new key, shown once. */
export const KeyCreated = Type.Object(
  {
    raw: Type.String({ description: 'The API key. Shown once; only a keyed hash is stored.' }),
    keyPrefix: Type.String(),
    projectName: Type.String(),
    tier: Type.String(),
    setupUrl: Type.String(),
    limits: KeyLimits,
  },
  { examples: [KEY_CREATED_EXAMPLE] },
);

export const KeyHoneypot = Type.Object(
  { success: Type.Boolean() },
  { description: 'Returned when the honeypot field is filled: no key is created.' },
);

/** POST /api/keys/rotate: the replacement key, shown once. */
export const KeyRotated = Type.Object(
  {
    raw: Type.String({ description: 'The new API key, shown once' }),
    keyPrefix: Type.String(),
    projectName: Type.String(),
    tier: Type.String(),
    setupUrl: Type.String({ description: "The new key's setup page link (usage, limits, quick starts)" }),
    rotatedFrom: Type.String({ description: 'keyPrefix of the key that was deactivated' }),
  },
  { examples: [KEY_ROTATED_EXAMPLE] },
);

// GET /api/keys/usage
const Remaining = Type.Union([Type.Integer(), Type.Null()], { description: 'null when unlimited' });

export const KeyUsage = Type.Object(
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
    history: Type.Optional(
      Type.Array(Type.Object({ day: Type.String({ format: 'date' }), count: Type.Integer({ minimum: 0 }) }), {
        description: 'GET /api/keys/usage: requests counted on each of the last 30 UTC days, oldest first (today last)',
      }),
    ),
  },
  { examples: [KEY_USAGE_EXAMPLE] },
);
