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

const DestinationType = StringEnum(['webhook', 'hubspot', 'attio'] as const, {
  description:
    '`webhook` (one request per push), `hubspot` (CRM v3 batch upsert by organisation number) or `attio` (record assert by organisation number)',
});

const FieldRule = StringEnum(['overwrite', 'fillIfEmpty'] as const, {
  description: '`overwrite` (default) writes on every push; `fillIfEmpty` never replaces a value set in the CRM',
});

const FieldMappingInput = Type.Union([
  Type.String({
    maxLength: 100,
    description: 'The CRM property (HubSpot) or attribute slug (Attio); "" stops writing the field',
  }),
  Type.Object(
    { property: Type.String({ maxLength: 100 }), rule: Type.Optional(FieldRule) },
    { additionalProperties: false },
  ),
]);

const FieldMappings = Type.Record(Type.String({ maxLength: 100 }), FieldMappingInput, {
  description:
    'CRM destinations: record field -> CRM property, over the default mapping (see README "CRM destinations"). Fields: orgNumber, name, country, orgFormCode, orgFormDescription, naceCode1, naceDescription1, employeeCount, businessAddressStreet, businessAddressPostalCode, businessAddressCity, businessAddressMunicipality, businessAddressMuniNo, businessAddressCountryCode, foundingDate, website, primaryDomain, phone, latestRevenue, latestNetResult, companyStatus, marketingProtected.',
});

/**
 * One object for the three kinds: the service checks which fields belong to the destination's
 * type and names each one that does not, so a mistake is reported at its own path.
 */
const DestinationConfigInput = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          'webhook (required): https expected; plain http is accepted with a warning. The host must resolve only to public addresses (unless ALLOW_PRIVATE_DESTINATIONS=true).',
      }),
    ),
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
          'webhook, optional, write-only. When set, requests carry Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). `whsec_<base64>` uses the decoded bytes as the key; otherwise 16-256 printable ASCII characters.',
      }),
    ),
    accessToken: Type.Optional(
      Type.String({
        maxLength: 512,
        writeOnly: true,
        description:
          'hubspot, write-only: a private app access token (scopes crm.objects.companies.read/write, crm.schemas.companies.read/write). Not needed for a destination made by the OAuth install.',
      }),
    ),
    portalId: Type.Optional(
      Type.String({
        maxLength: 20,
        description: 'hubspot: the account (hub) id, so its webhooks reach this destination',
      }),
    ),
    apiKey: Type.Optional(
      Type.String({ maxLength: 512, writeOnly: true, description: 'attio (required), write-only: an Attio API token' }),
    ),
    workspaceSlug: Type.Optional(Type.String({ maxLength: 100, description: 'attio: the workspace, for reference' })),
    webhookSecret: Type.Optional(
      Type.String({
        maxLength: 512,
        writeOnly: true,
        description:
          'attio, write-only: the secret of the Attio webhook that calls POST /api/integrations/attio/webhook (enrich-on-write)',
      }),
    ),
    fieldMappings: Type.Optional(FieldMappings),
    allowMarketingProtected: Type.Optional(
      Type.Boolean({
        description:
          'CRM destinations: push companies that declined advertising (DK reklamebeskyttet, SE reklamspärr) too, for uses other than marketing. Default false: they are skipped.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreateDestinationBody = Type.Object(
  {
    name: DestinationName,
    type: DestinationType,
    config: DestinationConfigInput,
    isActive: Type.Optional(Type.Boolean({ description: 'Default true' })),
  },
  { additionalProperties: false, examples: [DESTINATION_CREATE_EXAMPLE] },
);

export const UpdateDestinationBody = Type.Object(
  {
    type: Type.Optional(DestinationType),
    config: Type.Optional(DestinationConfigInput),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1, examples: [DESTINATION_UPDATE_EXAMPLE] },
);

const WebhookConfigView = Type.Object({
  url: Type.String(),
  method: Type.String(),
  headers: Type.Record(Type.String(), Type.String(), {
    description: 'Header names; every value is masked as "***"',
  }),
  signing: Type.Boolean({ description: 'Whether a signing secret is set (the secret is never served)' }),
});

const FieldMappingView = Type.Object({ property: Type.String(), rule: FieldRule });

const HubspotConfigView = Type.Object({
  auth: StringEnum(['private-app', 'oauth'] as const, { description: 'How the destination is connected' }),
  portalId: Type.Optional(Type.String()),
  orgNumberProperty: Type.String({ description: 'The unique company property the upsert is keyed by' }),
  fieldMappings: Type.Record(Type.String(), FieldMappingView),
  allowMarketingProtected: Type.Boolean(),
});

const AttioConfigView = Type.Object({
  workspaceSlug: Type.Optional(Type.String()),
  orgNumberAttribute: Type.String({ description: 'The unique company attribute records are asserted by' }),
  fieldMappings: Type.Record(Type.String(), FieldMappingView),
  allowMarketingProtected: Type.Boolean(),
  webhookSigning: Type.Boolean({ description: 'Whether a webhook secret is set (enrich-on-write)' }),
});

export const Destination = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    isActive: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    config: Type.Optional(
      Type.Union([WebhookConfigView, HubspotConfigView, AttioConfigView], {
        description:
          'Absent only when the stored config cannot be decrypted (see warnings). Tokens and secrets are never served.',
      }),
    ),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'E.g. a plain-http URL' })),
  },
  { examples: [DESTINATION_EXAMPLE] },
);

export const DestinationParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });

export const PushBody = Type.Object(
  {
    orgNumbers: Type.Optional(
      Type.Array(Type.String(), {
        minItems: 1,
        maxItems: 100,
        description: '9-digit Norwegian organisation numbers (this or pairs)',
      }),
    ),
    pairs: Type.Optional(
      Type.Array(
        Type.Object(
          { orgNumber: Type.String({ maxLength: 20 }), country: StringEnum(['NO', 'FI', 'SE', 'DK'] as const) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 100, description: 'Companies of any Nordic country (this or orgNumbers)' },
      ),
    ),
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
    created: Type.Optional(Type.Integer({ description: 'CRM destinations: records the CRM created' })),
    updated: Type.Optional(Type.Integer({ description: 'CRM destinations: existing records the CRM updated' })),
    skipped: Type.Optional(
      Type.Integer({ description: 'CRM destinations: companies not sent (see skippedCompanies)' }),
    ),
    failed: Type.Optional(Type.Integer({ description: 'CRM destinations: companies not written (see errors)' })),
    skippedCompanies: Type.Optional(
      Type.Array(Type.Object({ orgNumber: Type.String(), country: Type.String(), reason: Type.String() }), {
        description: 'E.g. a company that declined advertising, while the destination does not allow them',
      }),
    ),
    errors: Type.Array(
      Type.Union([
        Type.Object({
          batch: Type.Integer(),
          class: StringEnum(['http_status', 'timeout', 'network', 'blocked', 'invalid_request'] as const),
          status: Type.Optional(Type.Integer({ description: "The destination's HTTP status, for http_status" })),
          message: Type.String({ description: 'Fixed text per class; never what the destination answered' }),
        }),
        Type.Object({
          orgNumber: Type.String(),
          country: Type.String(),
          error: Type.String({ description: "What went wrong: the register's or the CRM's reason" }),
        }),
      ]),
      {
        description:
          'webhook: the failed batch (a push is one batch); CRM destinations: one entry per company not written. Empty on success.',
      },
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
