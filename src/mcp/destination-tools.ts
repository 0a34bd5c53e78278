// Destination tools: list_destinations, push_to_destination and manage_destination
// (GET /api/destinations, POST /api/push/{destinationName}, POST /api/destinations and
// PUT/DELETE /api/destinations/{name}). Pushing needs a tier that can push. manage_destination
// checks its arguments against the REST bodies' schemas, and the service then validates and
// SSRF-checks the webhook config exactly as the REST routes do.
import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { StringEnum } from '../contract/common.ts';
import {
  CreateDestinationBody,
  Destination,
  DestinationName,
  Destinations,
  PushResult,
  UpdateDestinationBody,
} from '../contract/destinations.ts';
import { keyShaped } from '../domain/api-key.ts';
import { ApiError, invalid } from '../errors.ts';
import { runTool, success, type ToolGroup } from './tool-kit.ts';

const KEY_SHAPE = keyShaped();

/** The REST body checks: the schema, and no NUL or API-key-shaped string (validation.ts). */
function checked<T>(schema: TSchema, value: unknown, at: string): T {
  const errors = [...Value.Errors(schema, value)].map((e) => ({
    path: `${at}${e.instancePath.replace(/\//g, '.')}`,
    message: e.message,
  }));
  if (errors.length) throw new ApiError('validation_failed', { details: errors });
  const text = JSON.stringify(value) ?? '';
  if (text.includes('\\u0000')) throw invalid(at, 'must not contain a NUL character');
  if (KEY_SHAPE.test(text))
    throw invalid(at, 'must not contain an API key; send keys only in the Authorization header');
  return value as T;
}

const Deleted = Type.Object({ name: Type.String(), deleted: Type.Boolean() });

const ACTIONS = ['create', 'update', 'delete', 'activate', 'deactivate'] as const;

const NoInput = Type.Object({});
const PushInput = Type.Object({
  destinationName: Type.String({ minLength: 1, maxLength: 100 }),
  orgNumbers: Type.Array(Type.String(), {
    minItems: 1,
    maxItems: 100,
    description: '9-digit Norwegian organisation numbers',
  }),
});
// The shape only: each action's arguments are then checked against its REST body (checked()).
const ManageInput = Type.Object({
  action: StringEnum(ACTIONS),
  name: Type.String({ minLength: 1, maxLength: 100, description: 'Destination name: letters, digits and . _ ~ -' }),
  type: Type.Optional(Type.String({ description: 'webhook (default), hubspot or attio' })),
  config: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'webhook: {url, method?, headers?, signingSecret?}; hubspot: {accessToken, portalId?, fieldMappings?, allowMarketingProtected?}; attio: {apiKey, workspaceSlug?, webhookSecret?, fieldMappings?, allowMarketingProtected?}',
    }),
  ),
  isActive: Type.Optional(Type.Boolean()),
});

export const destinationTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'list_destinations',
    {
      title: 'Push destinations',
      description:
        "The project's push destinations (webhooks, HubSpot, Attio), sorted by name. Header values, signing secrets and CRM tokens are never shown.",
      inputSchema: NoInput,
      annotations: { readOnlyHint: true },
    },
    () =>
      runTool(log, 'list_destinations', async () => success(Destinations, await services.destinations.list(caller))),
  );

  server.registerTool(
    'push_to_destination',
    {
      title: 'Push companies to a destination',
      description:
        'Sends the full records of up to 100 Norwegian companies to one of the project’s destinations: a webhook in a single request, ' +
        'a HubSpot or Attio destination as an upsert by organisation number (created, updated, skipped, failed counts). ' +
        'Failures are reported in errors[]. Free-tier keys cannot push.',
      inputSchema: PushInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ destinationName, orgNumbers }) =>
      runTool(log, 'push_to_destination', async () =>
        success(PushResult, await services.push.push(caller, destinationName, orgNumbers)),
      ),
  );

  server.registerTool(
    'manage_destination',
    {
      title: 'Create, change or delete a destination',
      description:
        'action=create (name, type "webhook" (default), "hubspot" or "attio", config, isActive?): webhook config {url, method?, headers?, signingSecret?}; ' +
        'hubspot {accessToken (private app), fieldMappings?, allowMarketingProtected?}; attio {apiKey, webhookSecret?, fieldMappings?, allowMarketingProtected?}; ' +
        'fieldMappings maps a record field to a CRM property, as a name or {property, rule: overwrite|fillIfEmpty}. ' +
        'update (name plus type, config and/or isActive; a config replaces the whole config), delete (name), ' +
        'activate or deactivate (name). The webhook URL must resolve to public addresses, as on REST. Returns the destination ' +
        '(header values masked, secrets never shown), or {name, deleted: true}.',
      inputSchema: ManageInput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    ({ action, name, type, config, isActive }) =>
      runTool(log, 'manage_destination', async () => {
        const d = services.destinations;
        if (action === 'create') {
          const body = checked<Parameters<typeof d.create>[1]>(
            CreateDestinationBody,
            { name, type: type ?? 'webhook', config, ...(isActive === undefined ? {} : { isActive }) },
            'body',
          );
          return success(Destination, await d.create(caller, body));
        }
        checked(DestinationName, name, 'params.name');
        if (action === 'delete') {
          await d.remove(caller, name);
          return success(Deleted, { name, deleted: true });
        }
        const patch =
          action === 'update'
            ? checked<Parameters<typeof d.update>[2]>(
                UpdateDestinationBody,
                Object.fromEntries(Object.entries({ type, config, isActive }).filter(([, v]) => v !== undefined)),
                'body',
              )
            : { isActive: action === 'activate' };
        return success(Destination, await d.update(caller, name, patch));
      }),
  );
};
