// The API clients of one CRM destination, shared by push and enrich-on-write: requests paced per
// destination (its CRM account's rate), and a HubSpot OAuth token refreshed before it expires and
// once after a 401, the new tokens sealed back into the destination's config.
import type { Logger } from 'pino';
import type { CrmConfig } from '../../config/index.ts';
import type { Clock } from '../../domain/clock.ts';
import { createAttioClient, ATTIO_RATE, type AttioClient } from '../../push/attio/client.ts';
import type { AttioConfig } from '../../push/attio/config.ts';
import { createPacer, CrmError, type Pacer } from '../../push/crm-http.ts';
import { createHubspotClient, HUBSPOT_RATE, hubspotToken, type HubspotClient } from '../../push/hubspot/client.ts';
import type { HubspotConfig } from '../../push/hubspot/config.ts';
import type { DestinationRepository, DestinationRow } from '../../store/destinations.ts';
import type { DestinationService } from './destinations.ts';

export interface CrmClientDeps {
  destinations: DestinationService;
  repo: DestinationRepository;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn'>;
  /** Read per call: tests point the API hosts at fakes after start. */
  config: { crm: CrmConfig };
  sleep?: (ms: number) => Promise<void>;
}

/** Refresh this long before the access token's expiry. */
const REFRESH_AHEAD_MS = 60_000;

export function createCrmClients(deps: CrmClientDeps) {
  const pacers = new Map<string, Pacer>();
  const pacer = (key: string, limit: number, windowMs: number) => {
    let p = pacers.get(key);
    if (!p) pacers.set(key, (p = createPacer(limit, windowMs, deps.sleep)));
    return p;
  };
  /** One refresh at a time per destination: parallel 401s share it. */
  const refreshing = new Map<string, Promise<boolean>>();

  async function refreshHubspot(row: DestinationRow, holder: { config: HubspotConfig; iv: string }): Promise<boolean> {
    const { hubspotClientId: clientId, hubspotClientSecret: clientSecret, hubspotBaseUrl } = deps.config.crm;
    if (!holder.config.oauth || !clientId || !clientSecret) return false;
    const running = refreshing.get(row.id);
    if (running) return running;
    const job = (async () => {
      // Another process may have refreshed already: its tokens are newer than ours.
      const fresh = await deps.repo.byId(row.id);
      if (fresh && fresh.config_iv !== holder.iv) {
        holder.config = deps.destinations.openRow(fresh) as HubspotConfig;
        holder.iv = fresh.config_iv;
        if (Date.parse(holder.config.oauth?.expiresAt ?? '') - deps.clock.now().getTime() > REFRESH_AHEAD_MS)
          return true;
      }
      const t = await hubspotToken(hubspotBaseUrl, {
        grant_type: 'refresh_token',
        client_id: clientId,
        client_secret: clientSecret,
        refresh_token: holder.config.oauth!.refreshToken,
      });
      const now = deps.clock.now();
      const next: HubspotConfig = {
        ...holder.config,
        accessToken: t.accessToken,
        oauth: { refreshToken: t.refreshToken, expiresAt: new Date(now.getTime() + t.expiresInS * 1000).toISOString() },
      };
      const sealed = deps.destinations.seal(row, next);
      if (await deps.repo.replaceConfig(row.id, holder.iv, sealed, now)) {
        holder.config = next;
        holder.iv = sealed.iv;
      } else {
        const again = await deps.repo.byId(row.id);
        if (!again) return false;
        holder.config = deps.destinations.openRow(again) as HubspotConfig;
        holder.iv = again.config_iv;
      }
      deps.log.info({ destinationId: row.id }, 'hubspot token refreshed');
      return true;
    })().finally(() => refreshing.delete(row.id));
    refreshing.set(row.id, job);
    return job.catch((err: unknown) => {
      deps.log.warn({ destinationId: row.id, reason: (err as Error).message }, 'hubspot token refresh failed');
      return false;
    });
  }

  return {
    async hubspot(row: DestinationRow, config: HubspotConfig): Promise<HubspotClient> {
      const holder = { config, iv: row.config_iv };
      const expiresAt = Date.parse(config.oauth?.expiresAt ?? '');
      if (config.oauth && expiresAt - deps.clock.now().getTime() < REFRESH_AHEAD_MS) {
        if (!(await refreshHubspot(row, holder)))
          throw new CrmError('auth', 'HubSpot access token expired and could not be refreshed; install the app again');
      }
      return createHubspotClient({
        baseUrl: deps.config.crm.hubspotBaseUrl,
        token: () => holder.config.accessToken,
        refresh: config.oauth ? () => refreshHubspot(row, holder) : undefined,
        pacer: pacer(`hubspot:${config.portalId ?? row.id}`, HUBSPOT_RATE.limit, HUBSPOT_RATE.windowMs),
        sleep: deps.sleep,
      });
    },
    attio(row: DestinationRow, config: AttioConfig): AttioClient {
      return createAttioClient({
        baseUrl: deps.config.crm.attioBaseUrl,
        token: () => config.apiKey,
        pacers: {
          reads: pacer(`attio-r:${row.id}`, ATTIO_RATE.reads.limit, ATTIO_RATE.reads.windowMs),
          writes: pacer(`attio-w:${row.id}`, ATTIO_RATE.writes.limit, ATTIO_RATE.writes.windowMs),
        },
        sleep: deps.sleep,
      });
    },
  };
}

export type CrmClients = ReturnType<typeof createCrmClients>;
