// A local Attio: the parts of the REST API v2 an Attio destination uses, in Attio's formats, and
// webhooks sent back like Attio sends them. Hand-written to the documented formats (no
// recording), from docs.attio.com:
// - assert a record: rest-api/endpoint-reference/records/assert-a-record (PUT
//   /v2/objects/{object}/records?matching_attribute=…; the attribute must be unique; 400
//   value_not_found for an unknown slug)
// - list (query) records: …/records/list-records (POST …/records/query {filter, limit})
// - attributes: …/attributes/list-attributes, …/attributes/create-an-attribute; value shapes:
//   docs/attribute-types (values are arrays; text/number/date/checkbox {value}, domain {domain,
//   root_domain}, location {line_1…, locality, postcode, country_code})
// - errors: {status_code, type, code, message}; 429 with Retry-After as an HTTP date
//   (rest-api/guides/rate-limiting)
// - webhooks: rest-api/guides/webhooks ({webhook_id, events: [{event_type, id: {workspace_id,
//   object_id, record_id, attribute_id}, actor}]}, Attio-Signature = hex HMAC-SHA256 of the body)
import { randomUUID } from 'node:crypto';
import { attioSignature } from '../../src/push/attio/signature.ts';
import { bearer, CrmFakeServer, json, type FakeAnswer, type FakeRequest } from './crm-fake-base.ts';

type Value = Record<string, unknown>;
export interface AttioRecordFake {
  id: { workspace_id: string; object_id: string; record_id: string };
  created_at: string;
  values: Record<string, Value[]>;
}
interface AttributeFake {
  api_slug: string;
  title: string;
  type: string;
  is_unique: boolean;
  is_multiselect: boolean;
}

const WORKSPACE = '14beef7a-99f7-4534-a87e-70b564330a4c';
const OBJECT = '97052eb9-e65e-443f-a297-f2d9a4a7f795';
const err = (status: number, type: string, code: string, message: string): FakeAnswer => ({
  status,
  body: { status_code: status, type, code, message },
});

export class FakeAttio extends CrmFakeServer {
  apiKey = 'attio-token-5b1c2d3e4f';
  attributes = new Map<string, AttributeFake>();
  records = new Map<string, AttioRecordFake>();
  webhook?: { url: string; secret: string };

  constructor() {
    super((r) => this.handle(r));
    const std: [string, string, boolean, boolean][] = [
      ['name', 'text', false, false],
      ['domains', 'domain', true, true],
      ['description', 'text', false, false],
      ['foundation_date', 'date', false, false],
      ['primary_location', 'location', false, false],
    ];
    for (const [api_slug, type, is_unique, is_multiselect] of std)
      this.attributes.set(api_slug, { api_slug, title: api_slug, type, is_unique, is_multiselect });
  }

  first(rec: AttioRecordFake | undefined, slug: string): unknown {
    const v = rec?.values[slug]?.[0];
    if (!v) return undefined;
    return v.attribute_type === 'domain' ? v.domain : v.attribute_type === 'location' ? v : v.value;
  }

  by(slug: string, value: unknown): AttioRecordFake | undefined {
    return [...this.records.values()].find((r) => this.first(r, slug) === value);
  }

  /** A record a person made in Attio, values as written over the API. */
  createByHand(values: Record<string, unknown>): AttioRecordFake {
    const rec: AttioRecordFake = {
      id: { workspace_id: WORKSPACE, object_id: OBJECT, record_id: randomUUID() },
      created_at: new Date().toISOString(),
      values: {},
    };
    this.records.set(rec.id.record_id, rec);
    this.write(rec, values, 'workspace-member');
    return rec;
  }

  private stored(slug: string, v: unknown, actor: string): Value[] {
    const a = this.attributes.get(slug)!;
    const base = {
      active_from: new Date().toISOString(),
      active_until: null,
      created_by_actor: { type: actor, id: randomUUID() },
    };
    const list = Array.isArray(v) ? v : [v];
    if (a.type === 'domain') return list.map((d) => ({ ...base, domain: d, root_domain: d, attribute_type: 'domain' }));
    if (a.type === 'location') return list.map((l) => ({ ...base, ...(l as object), attribute_type: 'location' }));
    return [{ ...base, value: v, attribute_type: a.type }];
  }

  /** Writes values; the slugs whose first value changed. */
  write(rec: AttioRecordFake, values: Record<string, unknown>, actor = 'api-token'): string[] {
    const changed: string[] = [];
    for (const [slug, v] of Object.entries(values)) {
      const before = JSON.stringify(this.first(rec, slug));
      rec.values[slug] = v === null ? [] : this.stored(slug, v, actor);
      if (JSON.stringify(this.first(rec, slug)) !== before) changed.push(slug);
    }
    return changed;
  }

  private async handle(r: FakeRequest): Promise<FakeAnswer> {
    if (bearer(r) !== this.apiKey) return err(401, 'auth_error', 'unauthorized', 'Invalid or expired access token');
    const body = json(r);
    if (r.path === '/v2/objects/companies/attributes') {
      if (r.method === 'GET')
        return {
          status: 200,
          body: {
            data: [...this.attributes.values()].map((a) => ({
              id: { workspace_id: WORKSPACE, object_id: OBJECT, attribute_id: randomUUID() },
              ...a,
              is_archived: false,
              is_required: false,
            })),
          },
        };
      if (r.method === 'POST') {
        const d = body.data as AttributeFake;
        if (this.attributes.has(d.api_slug))
          return err(400, 'invalid_request_error', 'slug_conflict', `Slug "${d.api_slug}" is already in use.`);
        if (!['text', 'number', 'date', 'checkbox'].includes(d.type))
          return err(400, 'invalid_request_error', 'validation_type', 'bad type');
        this.attributes.set(d.api_slug, {
          api_slug: d.api_slug,
          title: d.title,
          type: d.type,
          is_unique: Boolean(d.is_unique),
          is_multiselect: false,
        });
        return {
          status: 200,
          body: { data: { ...d, id: { workspace_id: WORKSPACE, object_id: OBJECT, attribute_id: randomUUID() } } },
        };
      }
    }
    if (r.path === '/v2/objects/companies/records/query' && r.method === 'POST') {
      const ors: Record<string, { $eq: unknown }>[] = body.filter?.$or ?? [];
      const hits = [...this.records.values()].filter((rec) =>
        ors.some((f) => Object.entries(f).every(([slug, c]) => this.first(rec, slug) === c.$eq)),
      );
      return { status: 200, body: { data: hits.slice(0, body.limit ?? 500) } };
    }
    if (r.path === '/v2/objects/companies/records' && r.method === 'PUT') {
      const slug = r.query.get('matching_attribute') ?? '';
      const a = this.attributes.get(slug);
      if (!a)
        return err(
          400,
          'invalid_request_error',
          'value_not_found',
          `No attribute was found for matching_attribute slug/ID "${slug}".`,
        );
      if (!a.is_unique)
        return err(400, 'invalid_request_error', 'validation_type', `Attribute "${slug}" is not unique.`);
      const values = body.data.values as Record<string, unknown>;
      for (const s of Object.keys(values))
        if (!this.attributes.has(s))
          return err(400, 'invalid_request_error', 'value_not_found', `Cannot find attribute with slug/ID "${s}".`);
      let rec = this.by(slug, values[slug]);
      const created = !rec;
      if (!rec) {
        rec = {
          id: { workspace_id: WORKSPACE, object_id: OBJECT, record_id: randomUUID() },
          created_at: new Date().toISOString(),
          values: {},
        };
        this.records.set(rec.id.record_id, rec);
      }
      const changed = this.write(rec, values);
      this.emit(rec, created ? ['*'] : changed);
      return { status: 200, body: { data: rec } };
    }
    const one = /^\/v2\/objects\/companies\/records\/([0-9a-f-]+)$/.exec(r.path);
    if (one) {
      const rec = this.records.get(one[1]);
      if (!rec) return err(404, 'invalid_request_error', 'not_found', `Record with ID "${one[1]}" not found.`);
      if (r.method === 'GET') return { status: 200, body: { data: rec } };
      if (r.method === 'PATCH') {
        this.emit(rec, this.write(rec, body.data.values));
        return { status: 200, body: { data: rec } };
      }
    }
    return err(404, 'invalid_request_error', 'not_found', `no route ${r.method} ${r.path}`);
  }

  /** record.created / record.updated for a change, as Attio delivers it. */
  private emit(rec: AttioRecordFake, changed: string[]) {
    if (!this.webhook || !changed.length) return;
    const events =
      changed[0] === '*'
        ? [
            {
              event_type: 'record.created',
              id: { workspace_id: WORKSPACE, object_id: OBJECT, record_id: rec.id.record_id },
              actor: { type: 'api-token', id: randomUUID() },
            },
          ]
        : changed.map(() => ({
            event_type: 'record.updated',
            id: { workspace_id: WORKSPACE, object_id: OBJECT, record_id: rec.id.record_id, attribute_id: randomUUID() },
            actor: { type: 'api-token', id: randomUUID() },
          }));
    void this.send(events);
  }

  webhooksSent = 0;
  async send(events: unknown[], secret?: string): Promise<number> {
    const w = this.webhook!;
    const body = JSON.stringify({ webhook_id: randomUUID(), events });
    this.webhooksSent++;
    const res = await fetch(w.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'attio-signature': attioSignature(secret ?? w.secret, body) },
      body,
    }).catch(() => undefined);
    await res?.text();
    return res?.status ?? 0;
  }
}

export async function startFakeAttio(): Promise<FakeAttio> {
  return new FakeAttio().listen();
}
