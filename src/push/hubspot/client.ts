// HubSpot's CRM v3 API as a destination uses it. Formats from HubSpot's API reference:
// - companies batch upsert: POST /crm/v3/objects/companies/batch/upsert, inputs [{id, idProperty,
//   properties}], answer {status, results: [{id, new, properties}]} (developers.hubspot.com/docs/
//   api-reference/legacy/crm/objects/companies/batch/upsert-companies); at most 100 inputs.
// - batch read by a unique property: POST /crm/v3/objects/companies/batch/read {idProperty,
//   inputs: [{id}], properties} (…/companies/batch/read-companies).
// - properties: GET /crm/v3/properties/companies, POST /crm/v3/properties/companies/batch/create
//   with hasUniqueValue for the organisation number (…/crm/properties/guide).
// - one company: GET and PATCH /crm/v3/objects/companies/{id}.
// - OAuth v1: POST /oauth/v1/token (form: grant_type authorization_code | refresh_token) answers
//   {access_token, refresh_token, expires_in}; GET /oauth/v1/access-tokens/{token} names hub_id
//   (…/legacy/authentication/oauth-tokens/v1/guide).
// Rate: 100 requests per 10 s, the lowest documented burst limit (Free/Starter and OAuth apps per
// account; developers.hubspot.com/docs/developer-tooling/platform/usage-guidelines).
import { createCrmHttp, createPacer, CrmError, type CrmHttp, type Pacer } from '../crm-http.ts';

export const HUBSPOT_BATCH_LIMIT = 100;
export const HUBSPOT_RATE = { limit: 100, windowMs: 10_000 };

export interface HubspotProperty {
  name: string;
  label: string;
  type: 'string' | 'number' | 'date' | 'bool';
  fieldType: 'text' | 'number' | 'date' | 'booleancheckbox';
  groupName: string;
  hasUniqueValue?: boolean;
  description?: string;
  options?: { label: string; value: string }[];
}

export interface HubspotCompany {
  id: string;
  properties: Record<string, string | null>;
  new?: boolean;
}

export interface HubspotTokens {
  accessToken: string;
  refreshToken: string;
  expiresInS: number;
}

export interface HubspotClientOptions {
  baseUrl: string;
  token(): string;
  refresh?(): Promise<boolean>;
  pacer?: Pacer;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
}

export function createHubspotClient(o: HubspotClientOptions) {
  const pacer = o.pacer ?? createPacer(HUBSPOT_RATE.limit, HUBSPOT_RATE.windowMs);
  const http: CrmHttp = createCrmHttp({
    vendor: 'HubSpot',
    baseUrl: o.baseUrl,
    token: o.token,
    refresh: o.refresh,
    pacer: () => pacer,
    sleep: o.sleep,
    timeoutMs: o.timeoutMs,
  });
  return {
    async propertyNames(): Promise<Set<string>> {
      const r = await http.request<{ results: { name: string }[] }>('GET', '/crm/v3/properties/companies');
      return new Set((r.results ?? []).map((p) => p.name));
    },
    async createProperties(inputs: HubspotProperty[]): Promise<void> {
      if (inputs.length) await http.request('POST', '/crm/v3/properties/companies/batch/create', { inputs });
    },
    /** Companies whose `idProperty` holds one of `ids`; the ones not found are left out. */
    async readByProperty(idProperty: string, ids: string[], properties: string[]): Promise<HubspotCompany[]> {
      const r = await http.request<{ results?: HubspotCompany[] }>('POST', '/crm/v3/objects/companies/batch/read', {
        idProperty,
        inputs: ids.map((id) => ({ id })),
        properties: [...new Set([idProperty, ...properties])],
      });
      return r?.results ?? [];
    },
    async upsert(
      idProperty: string,
      inputs: { id: string; properties: Record<string, string> }[],
    ): Promise<HubspotCompany[]> {
      const r = await http.request<{ results?: HubspotCompany[] }>('POST', '/crm/v3/objects/companies/batch/upsert', {
        inputs: inputs.map((i) => ({ id: i.id, idProperty, properties: i.properties })),
      });
      return r?.results ?? [];
    },
    async company(id: string, properties: string[]): Promise<HubspotCompany> {
      const q = new URLSearchParams({ properties: properties.join(',') });
      return http.request<HubspotCompany>('GET', `/crm/v3/objects/companies/${encodeURIComponent(id)}?${q}`);
    },
    async updateCompany(id: string, properties: Record<string, string>): Promise<void> {
      await http.request('PATCH', `/crm/v3/objects/companies/${encodeURIComponent(id)}`, { properties });
    },
  };
}

export type HubspotClient = ReturnType<typeof createHubspotClient>;

/** POST /oauth/v1/token with a form body; the answer's tokens, or a CrmError without them. */
export async function hubspotToken(
  baseUrl: string,
  form: Record<string, string>,
  timeoutMs = 15_000,
): Promise<HubspotTokens> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl.replace(/\/$/, '')}/oauth/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw new CrmError('unavailable', 'HubSpot OAuth could not be reached');
  }
  const json = (await res.json().catch(() => null)) as {
    access_token?: string;
    refresh_token?: string;
    expires_in?: number;
    message?: string;
  } | null;
  if (!res.ok || !json?.access_token || !json.refresh_token) {
    // HubSpot's message names the problem (e.g. BAD_REFRESH_TOKEN), never the token itself.
    const why = typeof json?.message === 'string' ? json.message.slice(0, 200) : `HTTP ${res.status}`;
    throw new CrmError(
      res.status >= 500 ? 'unavailable' : 'auth',
      `HubSpot OAuth refused the token request: ${why}`,
      res.status,
    );
  }
  return {
    accessToken: json.access_token,
    refreshToken: json.refresh_token,
    expiresInS: Number(json.expires_in ?? 1800),
  };
}

/** GET /oauth/v1/access-tokens/{token}: the hub (portal) id the token belongs to. */
export async function hubspotTokenPortal(baseUrl: string, accessToken: string, timeoutMs = 15_000): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl.replace(/\/$/, '')}/oauth/v1/access-tokens/${encodeURIComponent(accessToken)}`, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw new CrmError('unavailable', 'HubSpot OAuth could not be reached');
  }
  const json = (await res.json().catch(() => null)) as { hub_id?: number | string } | null;
  if (!res.ok || json?.hub_id === undefined)
    throw new CrmError('auth', `HubSpot did not describe the new token (HTTP ${res.status})`, res.status);
  return String(json.hub_id);
}
