// POST /api/push/{destinationName}: load full records (Norwegian and Danish misses fetched live,
// as enrich does) and send them. A webhook gets exactly one request per call, and a failed
// delivery is a result (the batch in errors[] with a fixed class; no retry). A CRM destination
// gets an upsert by organisation number (crm-push.ts) and a result with created, updated,
// skipped and failed counts, one error per company not written.
import type { Logger } from 'pino';
import type { Config } from '../../config/index.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Country } from '../../domain/org-number.ts';
import { ApiError, invalid, type ErrorDetail } from '../../errors.ts';
import type { Resolver } from '../../net/index.ts';
import { deliverWebhook, type DeliveryFailure } from '../../push/deliver.ts';
import type { CompanyService } from '../companies/companies.ts';
import { isWebhook, type DestinationService } from './destinations.ts';
import type { CrmPush } from './crm-push.ts';
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
  created?: number;
  updated?: number;
  skipped?: number;
  failed?: number;
  skippedCompanies?: { orgNumber: string; country: string; reason: string }[];
  errors: ((DeliveryFailure & { batch: number }) | { orgNumber: string; country: string; error: string })[];
}

export interface PushRequest {
  orgNumbers?: string[];
  pairs?: { orgNumber: string; country: Country }[];
}

export interface PushServiceDeps {
  resolver: Resolver;
  clock: Clock;
  log: Pick<Logger, 'info'>;
  /** Read per call: the address policy follows the running config. */
  config: Pick<Config, 'allowPrivateDestinations'>;
  companies: CompanyService;
  destinations: DestinationService;
  crm: CrmPush;
  /** Delivery deadline; default 10 s (PUSH_TIMEOUT_MS). */
  timeoutMs?: number;
}

export function createPushService(deps: PushServiceDeps) {
  const { log, companies, destinations } = deps;

  /** The companies asked for, each checked in its country's format; a 400 names every bad one. */
  function requested(body: PushRequest | string[]): { orgNumber: string; country: Country }[] {
    const b: PushRequest = Array.isArray(body) ? { orgNumbers: body } : body;
    if (b.orgNumbers && b.pairs) throw invalid('body', 'give orgNumbers or pairs, not both');
    if (!b.orgNumbers && !b.pairs) throw invalid('body.orgNumbers', 'is required');
    const details: ErrorDetail[] = [];
    const check = (country: Country, n: string, path: string) => {
      try {
        return companies.validate(country, n, path);
      } catch (err) {
        details.push(...((err as ApiError).opts.details ?? []));
        return n;
      }
    };
    const out = b.orgNumbers
      ? b.orgNumbers.map((n, i) => ({ orgNumber: check('NO', n, `body.orgNumbers.${i}`), country: 'NO' as Country }))
      : b.pairs!.map((p, i) => ({
          orgNumber: check(p.country, p.orgNumber, `body.pairs.${i}.orgNumber`),
          country: p.country,
        }));
    if (details.length) throw new ApiError('validation_failed', { details });
    return out;
  }

  return {
    async push(caller: AuthContext, destinationName: string, body: PushRequest | string[]): Promise<PushResult> {
      if (!caller.limits.canPush) throw new ApiError('push_not_allowed');
      const pairs = requested(body);
      const { row, config } = await destinations.forPush(caller, destinationName);
      const found = await companies.enrich(pairs, caller);
      const base = {
        destination: row.name,
        requested: new Set(pairs.map((p) => `${p.country}:${p.orgNumber}`)).size,
        notFound: found.notFound.map((p) => p.orgNumber),
        unavailable: found.unavailable.map((p) => p.orgNumber),
      };

      if (!isWebhook(config)) {
        const outcome =
          config.kind === 'hubspot'
            ? await deps.crm.pushHubspot(row, config, found.data)
            : await deps.crm.pushAttio(row, config, found.data);
        const missing = [
          ...found.notFound.map((p) => ({ ...p, error: 'not found in the register' })),
          ...found.unavailable.map((p) => ({ ...p, error: 'the register did not answer in time; not sent' })),
        ];
        log.info(
          {
            destinationId: row.id,
            type: row.type,
            created: outcome.created,
            updated: outcome.updated,
            skipped: outcome.skipped,
            failed: outcome.failed + missing.length,
          },
          'push to crm',
        );
        return {
          ...base,
          delivered: outcome.created + outcome.updated,
          created: outcome.created,
          updated: outcome.updated,
          skipped: outcome.skipped,
          failed: outcome.failed + missing.length,
          skippedCompanies: outcome.skippedCompanies,
          errors: [
            ...missing.map((m) => ({ orgNumber: m.orgNumber, country: m.country, error: m.error })),
            ...outcome.errors,
          ],
        };
      }

      const payload = JSON.stringify({ companies: found.data });
      const outcome = await deliverWebhook(config, payload, {
        resolver: deps.resolver,
        allowPrivate: deps.config.allowPrivateDestinations,
        now: deps.clock.now(),
        timeoutMs: deps.timeoutMs,
      });
      // The host only: webhook URLs often carry tokens in the path or query.
      const host = new URL(config.url).host;
      if (outcome.ok) {
        log.info(
          { destinationId: row.id, host, companies: found.data.length, status: outcome.status, bytes: payload.length },
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
        ...base,
        delivered: outcome.ok ? found.data.length : 0,
        errors: outcome.ok ? [] : [{ batch: 1, ...outcome.failure }],
      };
    },
  };
}
