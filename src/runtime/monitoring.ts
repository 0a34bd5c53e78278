// Composition of the monitoring use cases: the event log reader, the SSE hub,
// watchlists and their alert delivery. Kept apart so services.ts changes by one line.
import type { AppContext } from './context.ts';
import { systemClock } from '../domain/clock.ts';
import { createEventStreamHub } from '../services/monitoring/event-stream.ts';
import { createEventService } from '../services/monitoring/events.ts';
import type { KeyAuthService } from '../services/access/key-auth.ts';
import { createWatchlistDelivery } from '../services/monitoring/watchlist-delivery.ts';
import { createWatchlistService } from '../services/monitoring/watchlists.ts';
import { createPagination } from '../services/support/pagination.ts';

export function createMonitoringServices(ctx: AppContext, keyAuth: Pick<KeyAuthService, 'chargeQuota' | 'stillValid'>) {
  const { repos, config, clock, log } = ctx;
  return {
    // Reads by seq: gapless on any replica (event-log.ts caps a read at its snapshot's top).
    events: createEventService({ eventLog: repos.replica.eventLog }),
    eventStream: createEventStreamHub({
      eventLog: repos.replica.eventLog,
      heartbeatMs: config.monitoring.heartbeatMs,
      credentialCheckMs: config.monitoring.streamCredentialCheckMs,
      log,
    }),
    chargeStreamMinute: keyAuth.chargeQuota,
    streamCredentialValid: keyAuth.stillValid,
    watchlists: createWatchlistService({
      watchlists: repos.watchlists,
      destinations: repos.destinations,
      eventLog: repos.eventLog,
      config,
      // The same signing key and depth windows as services.ts's: a cursor is a cursor anywhere.
      pagination: createPagination({ rateWindows: ctx.rateWindows, secretKey: config.secretKey }),
    }),
    watchlistDelivery: createWatchlistDelivery({
      watchlists: repos.watchlists,
      eventLog: repos.eventLog,
      clock,
      wallClock: systemClock,
      resolver: ctx.resolver,
      secretKey: config.secretKey,
      config,
      holder: ctx.holder,
      log,
    }),
  };
}
