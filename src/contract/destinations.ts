// Schemas of destinations and push. The config's finer rules (header names and values, the
// addresses a URL resolves to) are checked by the service, which names each problem.
import { Type } from 'typebox';
import { StringEnum } from './common.ts';
import {
  DESTINATION_CREATE_EXAMPLE,
  DESTINATION_EXAMPLE,
  DESTINATION_UPDATE_EXAMPLE,
  PUSH_BODY_EXAMPLE,
  PUSH_RESULT_EXAMPLE,
} from './examples.ts';

export const DestinationName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9._~-]+$',
  description: 'Unique within the project; letters, digits and . _ ~ - (it appears in URLs)',
});

const DestinationType = StringEnum(['webhook'] as const, {
  description: 'Destination kind; `webhook` is the one supported',
});

const WebhookConfigInput = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'https expected; plain http is accepted with a warning. The host must resolve only to public addresses (unless ALLOW_PRIVATE_DESTINATIONS=true).',
    }),
    method: Type.Optional(StringEnum(['POST', 'PUT', 'PATCH'] as const, { description: 'Default POST' })),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          'Extra request headers (at most 20; values at most 1 KB, no CR/LF). Host, Content-Length, Transfer-Encoding, Connection, Content-Type and the webhook-* signing headers cannot be set. Values are stored encrypted and never served back.',
      }),
    ),
    signingSecret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        writeOnly: true,
        description:
          'Optional, write-only. When set, requests carry Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). `whsec_<base64>` uses the decoded bytes as the key; otherwise 16-256 printable ASCII characters.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreateDestinationBody = Type.Object(
  {
    name: DestinationName,
    type: DestinationType,
    config: WebhookConfigInput,
    isActive: Type.Optional(Type.Boolean({ description: 'Default true' })),
  },
  { additionalProperties: false, examples: [DESTINATION_CREATE_EXAMPLE] },
);

export const UpdateDestinationBody = Type.Object(
  {
    type: Type.Optional(DestinationType),
    config: Type.Optional(WebhookConfigInput),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1, examples: [DESTINATION_UPDATE_EXAMPLE] },
);

export const Destination = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    isActive: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    config: Type.Optional(
      Type.Object(
        {
          url: Type.String(),
          method: Type.String(),
          headers: Type.Record(Type.String(), Type.String(), {
            description: 'Header names; every value is masked as "***"',
          }),
          signing: Type.Boolean({ description: 'Whether a signing secret is set (the secret is never served)' }),
        },
        { description: 'Absent only when the stored config cannot be decrypted (see warnings)' },
      ),
    ),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'E.g. a plain-http URL' })),
  },
  { examples: [DESTINATION_EXAMPLE] },
);

export const DestinationParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });

export const PushBody = Type.Object(
  {
    orgNumbers: Type.Array(Type.String(), {
      minItems: 1,
      maxItems: 100,
      description: '9-digit Norwegian organisation numbers',
    }),
  },
  { additionalProperties: false, examples: [PUSH_BODY_EXAMPLE] },
);

export const PushResult = Type.Object(
  {
    destination: Type.String(),
    requested: Type.Integer({ description: 'Distinct org numbers asked for' }),
    delivered: Type.Integer({ description: 'Companies the destination accepted (2xx); 0 when the batch failed' }),
    notFound: Type.Array(Type.String()),
    unavailable: Type.Array(Type.String(), { description: 'The registry did not answer in time; not sent' }),
    errors: Type.Array(
      Type.Object({
        batch: Type.Integer(),
        class: StringEnum(['http_status', 'timeout', 'network', 'blocked', 'invalid_request'] as const),
        status: Type.Optional(Type.Integer({ description: "The destination's HTTP status, for http_status" })),
        message: Type.String({ description: 'Fixed text per class; never what the destination answered' }),
      }),
      { description: 'The failed batch (a push is one batch); empty on success' },
    ),
  },
  { examples: [PUSH_RESULT_EXAMPLE] },
);

/** POST /api/push/{destinationName}: the destination's name in the path. */
export const PushParams = Type.Object({ destinationName: DestinationParams.properties.name });

/** GET /api/destinations (and the MCP tool list_destinations). */
export const Destinations = Type.Object(
  { data: Type.Array(Destination) },
  { examples: [{ data: [DESTINATION_EXAMPLE] }] },
);

/** DELETE /api/destinations/{name}. */
export const DestinationDeleted = Type.Null({ description: 'Deleted' });
