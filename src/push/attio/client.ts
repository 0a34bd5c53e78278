// Attio's REST API v2 as a destination uses it. Formats from docs.attio.com:
// - assert a record: PUT /v2/objects/companies/records?matching_attribute=<unique slug>
//   {data: {values}} answers {data: {id: {workspace_id, object_id, record_id}, values}}
//   (rest-api/endpoint-reference/records/assert-a-record). There is no batch assert: one call per company.
// - query records: POST /v2/objects/companies/records/query {filter, limit} answers {data: [record]}
//   (…/records/list-records); values are arrays of {value} (text, number, date, checkbox),
//   {domain} (domains) or location parts (primary_location).
// - attributes: GET /v2/objects/companies/attributes, POST the same path
//   {data: {title, description, api_slug, type, is_required, is_unique, is_multiselect, config}}
//   (…/attributes/create-an-attribute; docs/attribute-types).
// - one record: GET and PATCH /v2/objects/companies/records/{record_id}.
// Rate: 100 read and 25 write requests per second; a 429 carries Retry-After as an HTTP date
// (rest-api/guides/rate-limiting).
import { createCrmHttp, createPacer, type Pacer } from '../crm-http.ts';

export const ATTIO_RATE = { reads: { limit: 100, windowMs: 1000 }, writes: { limit: 25, windowMs: 1000 } };

export type AttioValues = Record<string, unknown>;

export interface AttioRecord {
  id: { workspace_id?: string; object_id?: string; record_id: string };
  values: Record<string, Record<string, unknown>[]>;
}

export interface AttioAttribute {
  title: string;
  api_slug: string;
  type: 'text' | 'number' | 'date' | 'checkbox';
  description: string;
  is_unique: boolean;
}

export interface AttioClientOptions {
  baseUrl: string;
  token(): string;
  pacers?: { reads: Pacer; writes: Pacer };
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
}

const OBJ = '/v2/objects/companies';

export function createAttioClient(o: AttioClientOptions) {
  const pacers = o.pacers ?? {
    reads: createPacer(ATTIO_RATE.reads.limit, ATTIO_RATE.reads.windowMs),
    writes: createPacer(ATTIO_RATE.writes.limit, ATTIO_RATE.writes.windowMs),
  };
  const http = createCrmHttp({
    vendor: 'Attio',
    baseUrl: o.baseUrl,
    token: o.token,
    // The query endpoint is a POST but counts as a read.
    pacer: (method, path) => (method === 'GET' || path.endsWith('/records/query') ? pacers.reads : pacers.writes),
    sleep: o.sleep,
    timeoutMs: o.timeoutMs,
  });
  return {
    async attributeSlugs(): Promise<Set<string>> {
      const r = await http.request<{ data: { api_slug: string }[] }>('GET', `${OBJ}/attributes`);
      return new Set((r.data ?? []).map((a) => a.api_slug));
    },
    async createAttribute(a: AttioAttribute): Promise<void> {
      await http.request('POST', `${OBJ}/attributes`, {
        data: { ...a, is_required: false, is_multiselect: false, config: {} },
      });
    },
    /** Records whose `slug` holds one of `values` (one query for up to 100). */
    async findBy(slug: string, values: string[]): Promise<AttioRecord[]> {
      if (!values.length) return [];
      const r = await http.request<{ data: AttioRecord[] }>('POST', `${OBJ}/records/query`, {
        filter: { $or: values.map((v) => ({ [slug]: { $eq: v } })) },
        limit: values.length,
      });
      return r.data ?? [];
    },
    async assert(matchingAttribute: string, values: AttioValues): Promise<AttioRecord> {
      const q = new URLSearchParams({ matching_attribute: matchingAttribute });
      const r = await http.request<{ data: AttioRecord }>('PUT', `${OBJ}/records?${q}`, { data: { values } });
      return r.data;
    },
    async record(recordId: string): Promise<AttioRecord> {
      const r = await http.request<{ data: AttioRecord }>('GET', `${OBJ}/records/${encodeURIComponent(recordId)}`);
      return r.data;
    },
    async update(recordId: string, values: AttioValues): Promise<void> {
      await http.request('PATCH', `${OBJ}/records/${encodeURIComponent(recordId)}`, { data: { values } });
    },
  };
}

export type AttioClient = ReturnType<typeof createAttioClient>;
