// Push destinations: CRUD scoped to the caller's project. A config is validated (shape,
// headers, and the addresses its host resolves to), sealed with AES-256-GCM and served back
// masked: header names without values, never the signing secret.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/index.ts';
import type { Clock } from '../../domain/clock.ts';
import { ApiError, type ErrorDetail } from '../../errors.ts';
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
  DestinationNameTakenError,
  sealedOf,
  type DestinationRepository,
  type DestinationRow,
} from '../../store/destinations.ts';
import type { AuthContext } from '../access/key-auth.ts';

type DestinationType = 'webhook';

interface DestinationInput {
  name: string;
  type: DestinationType;
  config: WebhookConfigInput;
  isActive?: boolean;
}

interface DestinationPatch {
  type?: DestinationType;
  config?: WebhookConfigInput;
  isActive?: boolean;
}

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

  /** Validates and vets a config; throws a 400 listing every problem. */
  async function checkConfig(input: WebhookConfigInput): Promise<WebhookConfig> {
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

  function open(row: DestinationRow): WebhookConfig {
    return parseStoredConfig(openConfig(sealedOf(row), aadOf(row.id), keyring));
  }

  function view(row: DestinationRow, config: WebhookConfig | null) {
    const warnings = config ? configWarnings(config) : [UNREADABLE_WARNING];
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      isActive: row.is_active,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
      ...(config ? { config: maskedConfig(config) } : {}),
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
      const config = await checkConfig(input.config);
      const id = randomUUID();
      try {
        const row = await repo.insert({
          id,
          projectId: caller.projectId,
          name: input.name,
          type: input.type,
          isActive: input.isActive ?? true,
          config: sealConfig(config, aadOf(id), keyring),
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
      const config = patch.config ? await checkConfig(patch.config) : undefined;
      const row = await repo.update(caller.projectId, name, {
        type: patch.type,
        isActive: patch.isActive,
        config: config ? sealConfig(config, aadOf(existing.id), keyring) : undefined,
        now: deps.clock.now(),
      });
      if (!row) throw new ApiError('destination_not_found');
      return config ? view(row, config) : strictView(row);
    },

    async remove(caller: AuthContext, name: string) {
      if (!(await repo.remove(caller.projectId, name))) throw new ApiError('destination_not_found');
    },

    /** An active destination of the caller's project with its config opened, for a push. */
    async forPush(caller: AuthContext, name: string): Promise<{ row: DestinationRow; config: WebhookConfig }> {
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
  };
}

export type DestinationService = ReturnType<typeof createDestinationService>;
