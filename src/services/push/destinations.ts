// Push destinations: CRUD scoped to the caller's project. A config is validated (shape,
// headers, and the addresses its host resolves to; a CRM config's token and field mappings),
// sealed with AES-256-GCM and served back masked: header names without values, never a signing
// secret, access token or API token.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/index.ts';
import type { Clock } from '../../domain/clock.ts';
import { ApiError, invalid, type ErrorDetail } from '../../errors.ts';
import { checkDestination, type Resolver } from '../../net/index.ts';
import {
  ConfigUnreadableError,
  destinationAad as aadOf,
  destinationKeyring,
  openConfig,
  sealConfig,
} from '../../push/config-crypto.ts';
import { webhookNetPolicy } from '../../push/deliver.ts';
import {
  configWarnings,
  maskedConfig,
  parseStoredConfig,
  validateWebhookConfig,
  type WebhookConfig,
  type WebhookConfigInput,
} from '../../push/webhook-config.ts';
import {
  maskedHubspotConfig,
  parseStoredHubspotConfig,
  validateHubspotConfig,
  type HubspotConfig,
  type HubspotConfigInput,
} from '../../push/hubspot/config.ts';
import {
  maskedAttioConfig,
  parseStoredAttioConfig,
  validateAttioConfig,
  type AttioConfig,
  type AttioConfigInput,
} from '../../push/attio/config.ts';
import {
  DestinationNameTakenError,
  sealedOf,
  type DestinationRepository,
  type DestinationRow,
  type DestinationType,
} from '../../store/destinations.ts';
import type { AuthContext } from '../access/key-auth.ts';

/** The union of the three kinds' config fields, as the request schema takes them. */
type ConfigInput = Partial<WebhookConfigInput> & Partial<HubspotConfigInput> & Partial<AttioConfigInput>;

interface DestinationInput {
  name: string;
  type: DestinationType;
  config: ConfigInput;
  isActive?: boolean;
}

interface DestinationPatch {
  type?: DestinationType;
  config?: ConfigInput;
  isActive?: boolean;
}

export type DestinationConfig = WebhookConfig | HubspotConfig | AttioConfig;

/** Which config fields belong to which type. */
const FIELDS: Record<DestinationType, string[]> = {
  webhook: ['url', 'method', 'headers', 'signingSecret'],
  hubspot: ['accessToken', 'portalId', 'fieldMappings', 'allowMarketingProtected'],
  attio: ['apiKey', 'workspaceSlug', 'webhookSecret', 'fieldMappings', 'allowMarketingProtected'],
};

export const isWebhook = (c: DestinationConfig): c is WebhookConfig => !('kind' in c);

const UNREADABLE_WARNING =
  'config cannot be decrypted (was SECRET_KEY changed?); replace it with PUT or delete the destination';

/** Fixed texts for a refused address: never the resolved addresses themselves. */
function addressMessage(reason: string): string {
  switch (reason) {
    case 'private-address':
      return 'host must resolve only to public addresses (private, loopback and link-local are refused unless ALLOW_PRIVATE_DESTINATIONS=true)';
    case 'dns':
      return 'host does not resolve';
    case 'timeout':
      return 'host did not resolve in time';
    case 'port':
      return 'port is not allowed; use 80, 443 or a port above 1023';
    case 'scheme':
      return 'must use https (or http)';
    default:
      return 'must be an absolute http(s) URL without credentials';
  }
}

export interface DestinationServiceDeps {
  destinations: DestinationRepository;
  resolver: Resolver;
  clock: Clock;
  /** Seals destination configs. */
  secretKey: string;
  /** Read per call: the address policy follows the running config. */
  config: Pick<Config, 'allowPrivateDestinations'>;
}

export function createDestinationService(deps: DestinationServiceDeps) {
  const repo = deps.destinations;
  const keyring = destinationKeyring(deps.secretKey);

  /** Validates a config of any type; throws a 400 listing every problem. */
  async function checkConfig(
    type: DestinationType,
    input: ConfigInput,
    previous?: DestinationConfig,
  ): Promise<DestinationConfig> {
    const foreign: ErrorDetail[] = Object.keys(input)
      .filter((k) => !FIELDS[type].includes(k))
      .map((k) => ({ path: `body.config.${k}`, message: `is not a field of a ${type} config` }));
    if (type === 'webhook') {
      if (input.url === undefined) foreign.push({ path: 'body.config.url', message: 'is required' });
      if (foreign.length) throw new ApiError('validation_failed', { details: foreign });
      return checkWebhook(input as WebhookConfigInput);
    }
    if (type === 'hubspot') {
      const prev = previous && 'kind' in previous && previous.kind === 'hubspot' ? previous : undefined;
      const { config, details } = validateHubspotConfig(input, 'body.config', prev);
      if (foreign.length || details.length)
        throw new ApiError('validation_failed', { details: [...foreign, ...details] });
      return config;
    }
    if (input.apiKey === undefined)
      foreign.push({ path: 'body.config.apiKey', message: 'is required (an Attio API token)' });
    if (foreign.length) throw new ApiError('validation_failed', { details: foreign });
    const { config, details } = validateAttioConfig(input as AttioConfigInput, 'body.config');
    if (details.length) throw new ApiError('validation_failed', { details });
    return config;
  }

  /** Validates and vets a webhook config; throws a 400 listing every problem. */
  async function checkWebhook(input: WebhookConfigInput): Promise<WebhookConfig> {
    const { config, details } = validateWebhookConfig(input, 'body.config');
    const errors: ErrorDetail[] = [...details];
    if (!errors.some((d) => d.path === 'body.config.url')) {
      // Read per call: the policy follows the running config (an operator may flip it).
      const check = await checkDestination(
        config.url,
        webhookNetPolicy({ resolver: deps.resolver, allowPrivate: deps.config.allowPrivateDestinations }),
      );
      if (!check.ok) errors.push({ path: 'body.config.url', message: addressMessage(check.reason) });
    }
    if (errors.length) throw new ApiError('validation_failed', { details: errors });
    return config;
  }

  function open(row: DestinationRow): DestinationConfig {
    const value = openConfig(sealedOf(row), aadOf(row.id), keyring) as Record<string, unknown>;
    if (row.type === 'hubspot') return parseStoredHubspotConfig(value);
    if (row.type === 'attio') return parseStoredAttioConfig(value);
    return parseStoredConfig(value);
  }

  function masked(config: DestinationConfig) {
    if (isWebhook(config)) return maskedConfig(config);
    return config.kind === 'hubspot' ? maskedHubspotConfig(config) : maskedAttioConfig(config);
  }

  function view(row: DestinationRow, config: DestinationConfig | null) {
    const warnings = config ? (isWebhook(config) ? configWarnings(config) : []) : [UNREADABLE_WARNING];
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      isActive: row.is_active,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
      ...(config ? { config: masked(config) } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  }

  /** The record with its config, or a 500 naming the problem when it cannot be opened. */
  function strictView(row: DestinationRow) {
    try {
      return view(row, open(row));
    } catch (err) {
      if (err instanceof ConfigUnreadableError) throw new ApiError('destination_unreadable');
      throw err;
    }
  }

  async function find(caller: AuthContext, name: string): Promise<DestinationRow> {
    const row = await repo.find(caller.projectId, name);
    if (!row) throw new ApiError('destination_not_found');
    return row;
  }

  return {
    async create(caller: AuthContext, input: DestinationInput) {
      const config = await checkConfig(input.type, input.config);
      const id = randomUUID();
      try {
        const row = await repo.insert({
          id,
          projectId: caller.projectId,
          name: input.name,
          type: input.type,
          isActive: input.isActive ?? true,
          config: sealConfig(config, aadOf(id), keyring),
          externalAccount: 'kind' in config && config.kind === 'hubspot' ? (config.portalId ?? null) : null,
          now: deps.clock.now(),
        });
        return view(row, config);
      } catch (err) {
        if (err instanceof DestinationNameTakenError) {
          throw new ApiError('destination_name_taken', {
            details: [{ path: 'body.name', message: 'is already taken in this project' }],
          });
        }
        throw err;
      }
    },

    async list(caller: AuthContext) {
      const rows = await repo.list(caller.projectId);
      // One unreadable row must not hide the others: it is listed without its config.
      return {
        data: rows.map((row) => {
          try {
            return view(row, open(row));
          } catch (err) {
            if (err instanceof ConfigUnreadableError) return view(row, null);
            throw err;
          }
        }),
      };
    },

    async get(caller: AuthContext, name: string) {
      return strictView(await find(caller, name));
    },

    async update(caller: AuthContext, name: string, patch: DestinationPatch) {
      const existing = await find(caller, name);
      const type = (patch.type ?? existing.type) as DestinationType;
      if (patch.type && patch.type !== existing.type && !patch.config)
        throw invalid(
          'body.config',
          `is required when the type changes (the ${existing.type} config does not fit ${patch.type})`,
        );
      let previous: DestinationConfig | undefined;
      try {
        previous = type === existing.type ? open(existing) : undefined;
      } catch {
        previous = undefined;
      }
      const config = patch.config ? await checkConfig(type, patch.config, previous) : undefined;
      const row = await repo.update(caller.projectId, name, {
        type: patch.type,
        isActive: patch.isActive,
        config: config ? sealConfig(config, aadOf(existing.id), keyring) : undefined,
        ...(config
          ? { externalAccount: 'kind' in config && config.kind === 'hubspot' ? (config.portalId ?? null) : null }
          : {}),
        now: deps.clock.now(),
      });
      if (!row) throw new ApiError('destination_not_found');
      return config ? view(row, config) : strictView(row);
    },

    async remove(caller: AuthContext, name: string) {
      if (!(await repo.remove(caller.projectId, name))) throw new ApiError('destination_not_found');
    },

    /** An active destination of the caller's project with its config opened, for a push. */
    async forPush(caller: AuthContext, name: string): Promise<{ row: DestinationRow; config: DestinationConfig }> {
      const row = await find(caller, name);
      if (!row.is_active)
        throw new ApiError('destination_inactive', {
          message: `Destination "${name}" is inactive; activate it with PUT {"isActive": true}`,
        });
      try {
        return { row, config: open(row) };
      } catch (err) {
        if (err instanceof ConfigUnreadableError) throw new ApiError('destination_unreadable');
        throw err;
      }
    },

    /** A destination's config by row, for the background work of CRM destinations (no caller). */
    openRow(row: DestinationRow): DestinationConfig {
      return open(row);
    },

    /** Seals a config for a row (refreshed tokens), see DestinationRepository.replaceConfig. */
    seal(row: Pick<DestinationRow, 'id'>, config: DestinationConfig) {
      return sealConfig(config, aadOf(row.id), keyring);
    },

    /**
     * The OAuth install's destination `hubspot-<portalId>` in the caller's project: created, or
     * its tokens replaced when the portal is installed again (field mappings kept).
     */
    async upsertInstalled(
      projectId: number,
      portalId: string,
      tokens: { accessToken: string; refreshToken: string; expiresAt: string },
    ) {
      const name = `hubspot-${portalId}`;
      const now = deps.clock.now();
      const existing = await repo.find(projectId, name);
      let kept: Partial<HubspotConfig> = {};
      if (existing?.type === 'hubspot') {
        try {
          kept = open(existing) as HubspotConfig;
        } catch {
          kept = {};
        }
      }
      const config: HubspotConfig = {
        kind: 'hubspot',
        accessToken: tokens.accessToken,
        oauth: { refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt },
        portalId,
        fieldMappings: kept.fieldMappings ?? {},
        allowMarketingProtected: kept.allowMarketingProtected ?? false,
      };
      if (existing) {
        await repo.update(projectId, name, {
          type: 'hubspot',
          isActive: true,
          config: sealConfig(config, aadOf(existing.id), keyring),
          externalAccount: portalId,
          now,
        });
        return name;
      }
      const id = randomUUID();
      await repo.insert({
        id,
        projectId,
        name,
        type: 'hubspot',
        isActive: true,
        config: sealConfig(config, aadOf(id), keyring),
        externalAccount: portalId,
        now,
      });
      return name;
    },
  };
}

export type DestinationService = ReturnType<typeof createDestinationService>;
