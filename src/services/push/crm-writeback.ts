// Enrich-on-write: a CRM record whose organisation number was set or changed is looked up and
// the mapped fields are written back. The webhook routes only verify the signature and queue a
// job (store/crm-writebacks.ts), so HubSpot and Attio get their answer at once; a worker takes
// the jobs (kicked at once in this process, polled each second by every process) and writes.
// No loop: only events for the organisation-number property start a HubSpot job, the number
// itself is never written back, and a write-back whose values equal what the CRM already holds
// is not sent (so the CRM's echo of our own write ends there).
import type { Logger } from 'pino';
import type { CrmConfig } from '../../config/index.ts';
import type { Clock } from '../../domain/clock.ts';
import { isValidOrgNumber } from '../../domain/org-number.ts';
import { ApiError } from '../../errors.ts';
import { attioMappings, ATTIO_STATUS_ATTRIBUTE, type AttioConfig } from '../../push/attio/config.ts';
import { checkAttioSignature } from '../../push/attio/signature.ts';
import { attioComparable, attioCurrent, attioValues } from '../../push/attio/writer.ts';
import { crmValues, orgNumberInCrm, type CrmSourceRecord } from '../../push/crm-fields.ts';
import { CrmError } from '../../push/crm-http.ts';
import { hubspotMappings, HUBSPOT_STATUS_PROPERTY, type HubspotConfig } from '../../push/hubspot/config.ts';
import { checkHubspotSignature } from '../../push/hubspot/signature.ts';
import { hubspotProperties } from '../../push/hubspot/writer.ts';
import type { CrmWritebackRepository, CrmWritebackRow } from '../../store/crm-writebacks.ts';
import type { DestinationRepository, DestinationRow } from '../../store/destinations.ts';
import type { CompanyService } from '../companies/companies.ts';
import type { CrmClients } from './crm-clients.ts';
import { splitProtected } from './crm-push.ts';
import type { DestinationService } from './destinations.ts';

export interface CrmWritebackDeps {
  jobs: CrmWritebackRepository;
  repo: DestinationRepository;
  destinations: DestinationService;
  clients: CrmClients;
  companies: CompanyService;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn'>;
  config: { crm: CrmConfig };
}

/** The status words written to the CRM's status property. */
export const WRITEBACK_STATUS = {
  enriched: 'enriched',
  invalid: 'invalid organisation number',
  notFound: 'not found in the register',
  protected: 'marketing protected (not filled in)',
} as const;

interface HubspotEvent {
  subscriptionType?: string;
  objectTypeId?: string;
  portalId?: number | string;
  objectId?: number | string;
  propertyName?: string;
}

interface AttioEvent {
  event_type?: string;
  id?: { record_id?: string; object_id?: string; attribute_id?: string };
}

const LEASE_MS = 30_000;
const MAX_ATTEMPTS = 5;
const RETRY_MS = [2_000, 10_000, 30_000, 120_000];

export function createCrmWriteback(deps: CrmWritebackDeps) {
  let kick: (() => void) | undefined;

  const isCompanyEvent = (e: HubspotEvent, kind: 'creation' | 'propertyChange') =>
    e.subscriptionType === `company.${kind}` || (e.subscriptionType === `object.${kind}` && e.objectTypeId === '0-2');

  /** A record's lookup: the CRM's own values in, the register's values out (or a status). */
  async function lookup(
    raw: string | undefined,
  ): Promise<{ status: string } | { status?: undefined; record: CrmSourceRecord }> {
    const parsed = raw ? orgNumberInCrm(raw) : null;
    if (!parsed || !isValidOrgNumber(parsed.country, parsed.orgNumber)) return { status: WRITEBACK_STATUS.invalid };
    const found = await deps.companies.enrich([parsed]);
    if (found.unavailable.length) throw new CrmError('unavailable', 'the register did not answer');
    const record = found.data[0] as CrmSourceRecord | undefined;
    if (!record) return { status: WRITEBACK_STATUS.notFound };
    return { record };
  }

  async function hubspotJob(row: DestinationRow, config: HubspotConfig, objectId: string): Promise<string> {
    const mappings = hubspotMappings(config);
    const key = mappings.get('orgNumber')!.property;
    const client = await deps.clients.hubspot(row, config);
    const props = [...new Set([key, HUBSPOT_STATUS_PROPERTY, ...[...mappings.values()].map((m) => m.property)])];
    let company;
    try {
      company = await client.company(objectId, props);
    } catch (err) {
      if (err instanceof CrmError && err.kind === 'not_found') return 'gone';
      throw err;
    }
    const current = company.properties ?? {};
    if (!current[key]) return 'no_org_number';
    const l = await lookup(current[key] ?? undefined);
    let write: Record<string, string>;
    if (l.status !== undefined) write = { [HUBSPOT_STATUS_PROPERTY]: l.status };
    else if (splitProtected([l.record], config.allowMarketingProtected).skipped.length)
      write = { [HUBSPOT_STATUS_PROPERTY]: WRITEBACK_STATUS.protected };
    else {
      write = hubspotProperties(crmValues(l.record), mappings, current);
      delete write[key];
      write[HUBSPOT_STATUS_PROPERTY] = WRITEBACK_STATUS.enriched;
    }
    const changed = Object.fromEntries(Object.entries(write).filter(([p, v]) => (current[p] ?? '') !== v));
    if (!Object.keys(changed).length) return 'unchanged';
    await client.updateCompany(objectId, changed);
    return l.status ?? 'written';
  }

  async function attioJob(row: DestinationRow, config: AttioConfig, recordId: string): Promise<string> {
    const mappings = attioMappings(config);
    const key = mappings.get('orgNumber')!.property;
    const client = deps.clients.attio(row, config);
    let record;
    try {
      record = await client.record(recordId);
    } catch (err) {
      if (err instanceof CrmError && err.kind === 'not_found') return 'gone';
      throw err;
    }
    const number = attioCurrent(record, key);
    if (!number) return 'no_org_number';
    const l = await lookup(number);
    let write: Record<string, unknown>;
    if (l.status !== undefined) write = { [ATTIO_STATUS_ATTRIBUTE]: l.status };
    else if (splitProtected([l.record], config.allowMarketingProtected).skipped.length)
      write = { [ATTIO_STATUS_ATTRIBUTE]: WRITEBACK_STATUS.protected };
    else {
      write = attioValues(crmValues(l.record), mappings, record);
      delete write[key];
      write[ATTIO_STATUS_ATTRIBUTE] = WRITEBACK_STATUS.enriched;
    }
    const changed = Object.fromEntries(
      Object.entries(write).filter(([slug, v]) => attioCurrent(record, slug) !== attioComparable(slug, v)),
    );
    if (!Object.keys(changed).length) return 'unchanged';
    await client.update(recordId, changed);
    return l.status ?? 'written';
  }

  async function run(job: CrmWritebackRow): Promise<void> {
    const now = () => deps.clock.now();
    const row = await deps.repo.byId(job.destination_id);
    if (!row || !row.is_active) return deps.jobs.finish(job.id, 'failed', 'destination_gone', now());
    try {
      const config = deps.destinations.openRow(row);
      if (!('kind' in config)) return deps.jobs.finish(job.id, 'failed', 'not_a_crm', now());
      const outcome =
        config.kind === 'hubspot'
          ? await hubspotJob(row, config, job.object_id)
          : await attioJob(row, config, job.object_id);
      deps.log.info({ destinationId: row.id, type: row.type, outcome }, 'crm write-back');
      await deps.jobs.finish(job.id, 'done', outcome, now());
    } catch (err) {
      const retry = err instanceof CrmError && err.kind !== 'auth' && err.kind !== 'rejected';
      deps.log.warn(
        { destinationId: row.id, type: row.type, reason: (err as Error).message, attempt: job.attempts },
        'crm write-back failed',
      );
      if (retry && job.attempts < MAX_ATTEMPTS)
        return deps.jobs.retryAt(job.id, new Date(now().getTime() + RETRY_MS[job.attempts - 1]), now());
      await deps.jobs.finish(job.id, 'failed', err instanceof CrmError ? err.kind : 'error', now());
    }
  }

  /** Works off every due job; answers how many it ran. */
  async function drain(): Promise<number> {
    let ran = 0;
    for (;;) {
      const jobs = await deps.jobs.claim(deps.clock.now(), LEASE_MS, 10);
      if (!jobs.length) return ran;
      await Promise.all(jobs.map(run));
      ran += jobs.length;
    }
  }

  return {
    /** POST /api/integrations/hubspot/webhook: verify, queue, answer. */
    async hubspotWebhook(req: { method: string; uri: string; body: string; signature?: string; timestamp?: string }) {
      const secret = deps.config.crm.hubspotAppSecret;
      if (!secret)
        throw new ApiError('integration_not_configured', {
          message: 'HubSpot webhooks need HUBSPOT_APP_SECRET (or HUBSPOT_CLIENT_SECRET) on this server',
        });
      const check = checkHubspotSignature({
        secret,
        method: req.method,
        uri: req.uri,
        body: req.body,
        signature: req.signature,
        timestamp: req.timestamp,
        now: deps.clock.now(),
      });
      if (check !== 'ok') {
        deps.log.warn({ check }, 'hubspot webhook refused');
        throw new ApiError('invalid_signature', {
          message:
            check === 'stale'
              ? 'The request timestamp is older than five minutes'
              : 'The request signature is missing or wrong',
        });
      }
      let events: HubspotEvent[];
      try {
        const parsed = JSON.parse(req.body) as unknown;
        events = Array.isArray(parsed) ? (parsed as HubspotEvent[]) : [];
      } catch {
        throw new ApiError('invalid_json');
      }
      let queued = 0;
      const byPortal = new Map<string, DestinationRow[]>();
      for (const e of events.slice(0, 1000)) {
        const creation = isCompanyEvent(e, 'creation');
        if ((!creation && !isCompanyEvent(e, 'propertyChange')) || e.objectId === undefined || e.portalId === undefined)
          continue;
        const portal = String(e.portalId);
        if (!byPortal.has(portal)) byPortal.set(portal, await deps.repo.byExternalAccount('hubspot', portal));
        for (const row of byPortal.get(portal)!) {
          let config: HubspotConfig;
          try {
            config = deps.destinations.openRow(row) as HubspotConfig;
          } catch {
            continue;
          }
          // A change of any other property (our own write-back among them) is not ours to act on.
          if (!creation && e.propertyName !== hubspotMappings(config).get('orgNumber')!.property) continue;
          await deps.jobs.enqueue(row.id, String(e.objectId), deps.clock.now());
          queued++;
        }
      }
      if (queued) kick?.();
      return { received: events.length, queued };
    },

    /** POST /api/integrations/attio/webhook?destination=<id>: verify with that destination's secret. */
    async attioWebhook(req: { destinationId: string | undefined; body: string; signature?: string }) {
      const row =
        req.destinationId && /^[0-9a-f-]{36}$/i.test(req.destinationId)
          ? await deps.repo.byId(req.destinationId)
          : undefined;
      let config: AttioConfig | undefined;
      try {
        config = row?.type === 'attio' && row.is_active ? (deps.destinations.openRow(row) as AttioConfig) : undefined;
      } catch {
        config = undefined;
      }
      // One answer for an unknown destination and a wrong signature: the route reveals no ids.
      if (!row || !config?.webhookSecret || !checkAttioSignature(config.webhookSecret, req.body, req.signature)) {
        deps.log.warn({ known: Boolean(config) }, 'attio webhook refused');
        throw new ApiError('invalid_signature', { message: 'The request signature is missing or wrong' });
      }
      let events: AttioEvent[];
      try {
        events = ((JSON.parse(req.body) as { events?: AttioEvent[] }).events ?? []).slice(0, 1000);
      } catch {
        throw new ApiError('invalid_json');
      }
      let queued = 0;
      for (const e of events) {
        if ((e.event_type !== 'record.created' && e.event_type !== 'record.updated') || !e.id?.record_id) continue;
        await deps.jobs.enqueue(row.id, e.id.record_id, deps.clock.now());
        queued++;
      }
      if (queued) kick?.();
      return { received: events.length, queued };
    },

    drain,

    /** Polls every `intervalMs` (and at once when this process queues a job); stop waits for the run. */
    start(intervalMs: number) {
      let stopped = false;
      let running: Promise<void> | undefined;
      let timer: NodeJS.Timeout | undefined;
      const tick = () => {
        if (stopped || running) return;
        clearTimeout(timer);
        running = drain()
          .then(() => undefined)
          .catch((err: Error) => deps.log.warn({ reason: err.message }, 'crm write-back run failed'))
          .finally(() => {
            running = undefined;
            if (!stopped) timer = setTimeout(tick, intervalMs);
          });
      };
      kick = () => (running ? void running.then(() => setImmediate(tick)) : tick());
      timer = setTimeout(tick, intervalMs);
      return {
        async stop() {
          stopped = true;
          kick = undefined;
          clearTimeout(timer);
          await running;
        },
      };
    },
  };
}

export type CrmWriteback = ReturnType<typeof createCrmWriteback>;
