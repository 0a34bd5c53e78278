// A push to a CRM destination: an upsert keyed by the organisation number, so the same company
// pushed twice is one CRM record. HubSpot: the unique property is created on first use, then one
// batch upsert per call (one batch read before it when a field is fillIfEmpty). Attio: the unique
// attribute is created on first use, one query for the records that exist (created/updated and
// fillIfEmpty), then one assert per company (Attio has no batch assert). Companies that declined
// advertising are skipped unless the destination allows them.
import { ApiError } from '../../errors.ts';
import type { AttioConfig } from '../../push/attio/config.ts';
import { attioMappings } from '../../push/attio/config.ts';
import { attioValues, missingAttributes } from '../../push/attio/writer.ts';
import { crmValues, type CrmSourceRecord } from '../../push/crm-fields.ts';
import { CrmError } from '../../push/crm-http.ts';
import { HUBSPOT_BATCH_LIMIT } from '../../push/hubspot/client.ts';
import { hubspotMappings, type HubspotConfig } from '../../push/hubspot/config.ts';
import { hubspotProperties, missingProperties } from '../../push/hubspot/writer.ts';
import type { DestinationRow } from '../../store/destinations.ts';
import type { CrmClients } from './crm-clients.ts';

export interface CrmPushOutcome {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  skippedCompanies: { orgNumber: string; country: string; reason: string }[];
  errors: { orgNumber: string; country: string; error: string }[];
}

const PROTECTED_REASON: Record<string, string> = {
  DK: 'marketing protected: declined advertising in CVR (reklamebeskyttet); allowMarketingProtected pushes it',
  SE: 'marketing protected: advertising block in Bolagsverket (reklamspärr); allowMarketingProtected pushes it',
};

/** The companies to send and the ones held back by marketing protection. */
export function splitProtected<T extends CrmSourceRecord>(records: T[], allow: boolean) {
  const send: T[] = [];
  const skipped: CrmPushOutcome['skippedCompanies'] = [];
  for (const r of records) {
    if (r.marketingProtected === true && !allow)
      skipped.push({
        orgNumber: r.orgNumber,
        country: r.country,
        reason: PROTECTED_REASON[r.country] ?? 'marketing protected: the company declined advertising',
      });
    else send.push(r);
  }
  return { send, skipped };
}

/** The CRM could not be used at all: the push fails with the CRM's reason, naming no token. */
function unusable(err: CrmError): ApiError {
  return new ApiError('crm_unavailable', { message: `${err.message}; nothing was written` });
}

export function createCrmPush(clients: CrmClients) {
  /** Properties known to exist per destination and mapping, so a second push skips the check. */
  const ensured = new Set<string>();

  async function pushHubspot(row: DestinationRow, config: HubspotConfig, records: CrmSourceRecord[]) {
    const { send, skipped } = splitProtected(records, config.allowMarketingProtected);
    const out: CrmPushOutcome = {
      created: 0,
      updated: 0,
      skipped: skipped.length,
      failed: 0,
      skippedCompanies: skipped,
      errors: [],
    };
    if (!send.length) return out;
    const mappings = hubspotMappings(config);
    const key = mappings.get('orgNumber')!.property;
    try {
      const client = await clients.hubspot(row, config);
      const marker = `${row.id}:${JSON.stringify([...mappings])}`;
      if (!ensured.has(marker)) {
        await client.createProperties(missingProperties(mappings, await client.propertyNames()));
        ensured.add(marker);
      }
      const fillIfEmpty = [...mappings.values()].filter((m) => m.rule === 'fillIfEmpty').map((m) => m.property);
      for (let i = 0; i < send.length; i += HUBSPOT_BATCH_LIMIT) {
        const chunk = send.slice(i, i + HUBSPOT_BATCH_LIMIT);
        const current = new Map<string, Record<string, string | null>>();
        if (fillIfEmpty.length) {
          const found = await client.readByProperty(
            key,
            chunk.map((r) => r.orgNumber),
            fillIfEmpty,
          );
          for (const c of found) if (c.properties[key]) current.set(String(c.properties[key]), c.properties);
        }
        const inputs = chunk.map((r) => ({
          id: r.orgNumber,
          properties: {
            ...hubspotProperties(crmValues(r), mappings, current.get(r.orgNumber) ?? {}),
            [key]: r.orgNumber,
          },
        }));
        try {
          const results = await client.upsert(key, inputs);
          for (const res of results) {
            if (res.new) out.created++;
            else out.updated++;
          }
          const answered = new Set(results.map((res) => String(res.properties?.[key] ?? '')));
          // A record HubSpot left out of its answer was not confirmed written.
          if (results.length < chunk.length)
            for (const r of chunk.filter((c) => !answered.has(c.orgNumber))) {
              out.failed++;
              out.errors.push({
                orgNumber: r.orgNumber,
                country: r.country,
                error: 'HubSpot did not confirm the upsert',
              });
            }
        } catch (err) {
          if (!(err instanceof CrmError) || err.kind !== 'rejected') throw err;
          for (const r of chunk) {
            out.failed++;
            out.errors.push({ orgNumber: r.orgNumber, country: r.country, error: err.message });
          }
        }
      }
    } catch (err) {
      if (err instanceof CrmError) throw unusable(err);
      throw err;
    }
    return out;
  }

  async function pushAttio(row: DestinationRow, config: AttioConfig, records: CrmSourceRecord[]) {
    const { send, skipped } = splitProtected(records, config.allowMarketingProtected);
    const out: CrmPushOutcome = {
      created: 0,
      updated: 0,
      skipped: skipped.length,
      failed: 0,
      skippedCompanies: skipped,
      errors: [],
    };
    if (!send.length) return out;
    const mappings = attioMappings(config);
    const key = mappings.get('orgNumber')!.property;
    const client = clients.attio(row, config);
    let existing: Map<string, Awaited<ReturnType<typeof client.findBy>>[number]>;
    try {
      const marker = `${row.id}:${JSON.stringify([...mappings])}`;
      if (!ensured.has(marker)) {
        const have = await client.attributeSlugs();
        for (const a of missingAttributes(mappings, have)) await client.createAttribute(a);
        ensured.add(marker);
      }
      const found = await client.findBy(
        key,
        send.map((r) => r.orgNumber),
      );
      existing = new Map(found.map((rec) => [String(rec.values?.[key]?.[0]?.value ?? ''), rec]));
    } catch (err) {
      if (err instanceof CrmError) throw unusable(err);
      throw err;
    }
    for (let i = 0; i < send.length; i++) {
      const r = send[i];
      const current = existing.get(r.orgNumber);
      try {
        await client.assert(key, { ...attioValues(crmValues(r), mappings, current), [key]: r.orgNumber });
        if (current) out.updated++;
        else out.created++;
      } catch (err) {
        if (!(err instanceof CrmError)) throw err;
        if (err.kind === 'rejected' || err.kind === 'not_found') {
          out.failed++;
          out.errors.push({ orgNumber: r.orgNumber, country: r.country, error: err.message });
          continue;
        }
        // Attio stopped answering (or refused the token): the rest is not tried.
        for (const rest of send.slice(i)) {
          out.failed++;
          out.errors.push({ orgNumber: rest.orgNumber, country: rest.country, error: err.message });
        }
        if (i === 0) throw unusable(err);
        break;
      }
    }
    return out;
  }

  return { pushHubspot, pushAttio };
}

export type CrmPush = ReturnType<typeof createCrmPush>;
