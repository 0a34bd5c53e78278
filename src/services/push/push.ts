// POST /api/push/{destinationName}: load full records (Norwegian misses fetched live, as
// enrich does) and send them to the destination in exactly one request. A failed delivery is
// a result, not an error: the batch is reported in errors[] with a fixed class; no retry.
import type { Logger } from 'pino';
import type { Config } from '../../config/index.ts';
import type { Clock } from '../../domain/clock.ts';
import { ApiError, type ErrorDetail } from '../../errors.ts';
import type { Resolver } from '../../net/index.ts';
import { deliverWebhook, type DeliveryFailure } from '../../push/deliver.ts';
import type { CompanyService } from '../companies/companies.ts';
import type { DestinationService } from './destinations.ts';
import type { AuthContext } from '../access/key-auth.ts';

interface PushResult {
  destination: string;
  /** Distinct org numbers asked for. */
  requested: number;
  /** Companies the destination accepted (2xx); 0 when the batch failed. */
  delivered: number;
  notFound: string[];
  /** The registry could not be asked in time: not sent, not known to be missing. */
  unavailable: string[];
  errors: (DeliveryFailure & { batch: number })[];
}

export interface PushServiceDeps {
  resolver: Resolver;
  clock: Clock;
  log: Pick<Logger, 'info'>;
  /** Read per call: the address policy follows the running config. */
  config: Pick<Config, 'allowPrivateDestinations'>;
  companies: CompanyService;
  destinations: DestinationService;
  /** Delivery deadline; default 10 s (PUSH_TIMEOUT_MS). */
  timeoutMs?: number;
}

export function createPushService(deps: PushServiceDeps) {
  const { log, companies, destinations } = deps;

  return {
    async push(caller: AuthContext, destinationName: string, rawOrgNumbers: string[]): Promise<PushResult> {
      if (!caller.limits.canPush) throw new ApiError('push_not_allowed');
      const details: ErrorDetail[] = [];
      const orgNumbers = rawOrgNumbers.map((n, i) => {
        try {
          return companies.validate('NO', n, `body.orgNumbers.${i}`);
        } catch (err) {
          details.push(...((err as ApiError).opts.details ?? []));
          return n;
        }
      });
      if (details.length) throw new ApiError('validation_failed', { details });

      const { row, config } = await destinations.forPush(caller, destinationName);
      const found = await companies.enrich(
        orgNumbers.map((orgNumber) => ({ orgNumber, country: 'NO' as const })),
        caller,
      );
      const body = JSON.stringify({ companies: found.data });
      const outcome = await deliverWebhook(config, body, {
        resolver: deps.resolver,
        allowPrivate: deps.config.allowPrivateDestinations,
        now: deps.clock.now(),
        timeoutMs: deps.timeoutMs,
      });
      // The host only: webhook URLs often carry tokens in the path or query.
      const host = new URL(config.url).host;
      if (outcome.ok) {
        log.info(
          { destinationId: row.id, host, companies: found.data.length, status: outcome.status, bytes: body.length },
          'push delivered',
        );
      } else {
        log.info(
          {
            destinationId: row.id,
            host,
            class: outcome.failure.class,
            status: outcome.failure.status,
            reason: outcome.reason,
          },
          'push failed',
        );
      }
      return {
        destination: row.name,
        requested: new Set(orgNumbers).size,
        delivered: outcome.ok ? found.data.length : 0,
        notFound: found.notFound.map((p) => p.orgNumber),
        unavailable: found.unavailable.map((p) => p.orgNumber),
        errors: outcome.ok ? [] : [{ batch: 1, ...outcome.failure }],
      };
    },
  };
}
