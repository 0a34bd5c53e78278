// Shared TypeBox schemas: the error body and small reusable pieces.
import { Type, type TSchema } from 'typebox';
import { ERROR_EXAMPLE } from './examples.ts';

export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    code: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    requestId: Type.Optional(Type.String()),
    upgradeUrl: Type.Optional(Type.String()),
    retryAfter: Type.Optional(Type.Integer()),
    docs: Type.Optional(
      Type.String({ format: 'uri', description: "This code's entry on the errors page: meaning and what to do" }),
    ),
  },
  {
    $id: 'ErrorBody',
    description: 'Every error has this shape; `details` on validation errors.',
    examples: [ERROR_EXAMPLE],
  },
);

const errorRef = Type.Ref('ErrorBody');

/** Response schemas for the error statuses a route can answer. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, errorRef]));
}

/** A string enum rendered as a plain JSON Schema `enum` (TypeBox unions render as anyOf). */
export function StringEnum<T extends string>(values: readonly T[], options: Record<string, unknown> = {}) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}

export const NorwegianOrgNumber = Type.String({
  pattern: '^[0-9]{9}$',
  description: '9-digit Norwegian organisation number',
});

/** 204: no body. */
export const NoContent = Type.Null();
