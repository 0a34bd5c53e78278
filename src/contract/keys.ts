// Schemas of the key resources.
import { Type } from 'typebox';
import { KEY_LIMITS_EXAMPLE } from './examples.ts';

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
