// A local HubSpot: the parts of the CRM v3 and OAuth v1 APIs a HubSpot destination uses, in
// HubSpot's formats, and webhooks sent back like HubSpot sends them. Hand-written to the
// documented formats (no recording), from:
// - batch upsert: developers.hubspot.com/docs/api-reference/legacy/crm/objects/companies/batch/upsert-companies
//   (inputs [{id, idProperty, properties}]; results [{id, new, properties, createdAt, updatedAt}])
// - batch read: …/legacy/crm/objects/companies/batch/read-companies ({idProperty, inputs, properties};
//   207 with errors for ids not found)
// - properties: developers.hubspot.com/docs/api-reference/crm-properties-v3/guide (GET list,
//   batch/create; hasUniqueValue only on string properties)
// - one company: …/crm/objects/companies/basic/get-crm-v3-objects-companies-companyId and PATCH
// - errors: {status: "error", message, correlationId, category} (…/api-reference/error-handling)
// - OAuth v1: …/legacy/authentication/oauth-tokens/v1/guide (form POST /oauth/v1/token;
//   GET /oauth/v1/access-tokens/{token} with hub_id)
// - webhooks: …/api-reference/webhooks-webhooks-v3/guide (a JSON array of events with objectId,
//   propertyName, propertyValue, changeSource, portalId, subscriptionType) signed with
//   X-HubSpot-Signature-v3 (…/apps/legacy-apps/authentication/validating-requests).
import { randomBytes } from 'node:crypto';
import { hubspotSignatureV3 } from '../../src/push/hubspot/signature.ts';
import { bearer, CrmFakeServer, json, type FakeAnswer, type FakeRequest } from './crm-fake-base.ts';

export interface HubspotCompanyRecord {
  id: string;
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
}

interface PropertyDef {
  name: string;
  label: string;
  type: string;
  fieldType: string;
  groupName: string;
  hasUniqueValue: boolean;
}

const STANDARD = [
  'name',
  'domain',
  'website',
  'numberofemployees',
  'address',
  'city',
  'zip',
  'country',
  'phone',
  'annualrevenue',
  'description',
];

const error = (status: number, category: string, message: string): FakeAnswer => ({
  status,
  body: { status: 'error', message, correlationId: randomBytes(8).toString('hex'), category },
});

export class FakeHubspot extends CrmFakeServer {
  properties = new Map<string, PropertyDef>();
  companies = new Map<string, HubspotCompanyRecord>();
  /** Access tokens accepted; an OAuth refresh replaces one. */
  tokens = new Set<string>();
  refreshTokens = new Map<string, string>(); // refresh token -> hub id
  codes = new Map<string, string>(); // authorization code -> hub id
  issued: string[] = [];
  portalId = 4711;
  client = { id: 'hs-client-id', secret: 'hs-client-secret-9f8e7d6c' };
  /** Where to send webhooks for property changes (HubSpot's app webhook target), when set. */
  webhook?: { url: string; appSecret: string; properties: string[] };
  webhooksSent = 0;
  private nextId = 1000;

  constructor() {
    super((r) => this.handle(r));
    for (const name of STANDARD)
      this.properties.set(name, {
        name,
        label: name,
        type: name === 'numberofemployees' || name === 'annualrevenue' ? 'number' : 'string',
        fieldType: 'text',
        groupName: 'companyinformation',
        hasUniqueValue: false,
      });
  }

  byProperty(prop: string, value: string): HubspotCompanyRecord | undefined {
    return [...this.companies.values()].find((c) => c.properties[prop] === value);
  }

  /** A company a person made in HubSpot (no webhook). */
  createByHand(properties: Record<string, string>): HubspotCompanyRecord {
    const now = new Date().toISOString();
    const c = { id: String(this.nextId++), properties: { ...properties }, createdAt: now, updatedAt: now };
    this.companies.set(c.id, c);
    return c;
  }

  issueToken(): string {
    const t = `hs-at-${randomBytes(12).toString('hex')}`;
    this.tokens.add(t);
    this.issued.push(t);
    return t;
  }

  private async handle(r: FakeRequest): Promise<FakeAnswer> {
    if (r.path === '/oauth/v1/token' && r.method === 'POST') return this.token(r);
    const info = /^\/oauth\/v1\/access-tokens\/(.+)$/.exec(r.path);
    if (info && r.method === 'GET') {
      const t = decodeURIComponent(info[1]);
      if (!this.tokens.has(t)) return error(404, 'OBJECT_NOT_FOUND', 'token not found');
      return {
        status: 200,
        body: { token: t, hub_id: this.portalId, app_id: 77, expires_in: 1800, token_type: 'access', scopes: [] },
      };
    }
    if (!this.tokens.has(bearer(r)))
      return error(
        401,
        'INVALID_AUTHENTICATION',
        'Authentication credentials not found. This API supports OAuth 2.0 authentication.',
      );
    const body = json(r);
    if (r.path === '/crm/v3/properties/companies' && r.method === 'GET')
      return { status: 200, body: { results: [...this.properties.values()] } };
    if (r.path === '/crm/v3/properties/companies/batch/create' && r.method === 'POST') {
      const results = [];
      for (const p of body.inputs as PropertyDef[]) {
        if (this.properties.has(p.name))
          return error(409, 'OBJECT_ALREADY_EXISTS', `Property ${p.name} already exists`);
        if (p.hasUniqueValue && p.type !== 'string')
          return error(400, 'VALIDATION_ERROR', 'unique values need a string property');
        const def = { ...p, hasUniqueValue: Boolean(p.hasUniqueValue) };
        this.properties.set(p.name, def);
        results.push(def);
      }
      return { status: 201, body: { status: 'COMPLETE', results } };
    }
    if (r.path === '/crm/v3/objects/companies/batch/read' && r.method === 'POST') {
      const results = [];
      const missing: string[] = [];
      for (const { id } of body.inputs as { id: string }[]) {
        const c = body.idProperty ? this.byProperty(body.idProperty, id) : this.companies.get(id);
        if (c) results.push(this.view(c, body.properties));
        else missing.push(id);
      }
      return {
        status: missing.length ? 207 : 200,
        body: {
          status: 'COMPLETE',
          results,
          ...(missing.length
            ? {
                numErrors: 1,
                errors: [
                  {
                    status: 'error',
                    category: 'OBJECT_NOT_FOUND',
                    message: 'Could not get some COMPANY objects',
                    context: { ids: missing },
                  },
                ],
              }
            : {}),
        },
      };
    }
    if (r.path === '/crm/v3/objects/companies/batch/upsert' && r.method === 'POST') {
      if (body.inputs.length > 100) return error(400, 'VALIDATION_ERROR', 'Batch size exceeds 100');
      const results = [];
      const changes: { id: string; props: string[] }[] = [];
      for (const input of body.inputs as { id: string; idProperty: string; properties: Record<string, string> }[]) {
        const def = this.properties.get(input.idProperty);
        if (!def?.hasUniqueValue)
          return error(400, 'VALIDATION_ERROR', `Property ${input.idProperty} is not a unique identifier property`);
        for (const p of Object.keys(input.properties))
          if (!this.properties.has(p))
            return error(400, 'VALIDATION_ERROR', `Property values were not valid: ${p} does not exist`);
        let c = this.byProperty(input.idProperty, input.id);
        const isNew = !c;
        if (!c) c = this.createByHand({ [input.idProperty]: input.id });
        changes.push({ id: c.id, props: this.apply(c, input.properties) });
        results.push({ ...this.view(c), new: isNew });
      }
      this.emit(changes);
      return {
        status: 200,
        body: {
          status: 'COMPLETE',
          results,
          startedAt: new Date().toISOString(),
          completedAt: new Date().toISOString(),
        },
      };
    }
    const one = /^\/crm\/v3\/objects\/companies\/(\d+)$/.exec(r.path);
    if (one) {
      const c = this.companies.get(one[1]);
      if (!c) return error(404, 'OBJECT_NOT_FOUND', 'resource not found');
      if (r.method === 'GET') return { status: 200, body: this.view(c, r.query.get('properties')?.split(',')) };
      if (r.method === 'PATCH') {
        for (const p of Object.keys(body.properties))
          if (!this.properties.has(p)) return error(400, 'VALIDATION_ERROR', `Property ${p} does not exist`);
        this.emit([{ id: c.id, props: this.apply(c, body.properties) }]);
        return { status: 200, body: this.view(c) };
      }
    }
    return error(404, 'NOT_FOUND', `no route ${r.method} ${r.path}`);
  }

  private token(r: FakeRequest): FakeAnswer {
    const f = new URLSearchParams(r.body);
    if (f.get('client_id') !== this.client.id || f.get('client_secret') !== this.client.secret)
      return { status: 400, body: { status: 'BAD_CLIENT_ID', message: 'missing or unknown client id' } };
    let hub: string | undefined;
    if (f.get('grant_type') === 'refresh_token') {
      hub = this.refreshTokens.get(f.get('refresh_token') ?? '');
      if (!hub)
        return { status: 400, body: { status: 'BAD_REFRESH_TOKEN', message: 'missing or unknown refresh token' } };
      this.refreshTokens.delete(f.get('refresh_token')!); // refresh tokens rotate
    } else if (f.get('grant_type') === 'authorization_code') {
      hub = this.codes.get(f.get('code') ?? '');
      if (!hub) return { status: 400, body: { status: 'BAD_AUTH_CODE', message: 'missing or unknown auth code' } };
      this.codes.delete(f.get('code')!);
    } else return { status: 400, body: { status: 'BAD_GRANT_TYPE', message: 'unknown grant type' } };
    const refresh = `hs-rt-${randomBytes(12).toString('hex')}`;
    this.refreshTokens.set(refresh, hub);
    return {
      status: 200,
      body: { token_type: 'bearer', access_token: this.issueToken(), refresh_token: refresh, expires_in: 1800 },
    };
  }

  /** Sets properties; the names whose value changed. */
  private apply(c: HubspotCompanyRecord, props: Record<string, string>): string[] {
    const changed = Object.entries(props)
      .filter(([k, v]) => c.properties[k] !== v)
      .map(([k]) => k);
    Object.assign(c.properties, props);
    c.updatedAt = new Date().toISOString();
    return changed;
  }

  private view(c: HubspotCompanyRecord, props?: string[]) {
    const properties = props ? Object.fromEntries(props.map((p) => [p, c.properties[p] ?? null])) : { ...c.properties };
    return {
      id: c.id,
      properties: { ...properties, hs_object_id: c.id },
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      archived: false,
    };
  }

  /** The webhook HubSpot sends when subscribed properties change through the API. */
  private emit(changes: { id: string; props: string[] }[]) {
    const w = this.webhook;
    if (!w) return;
    const events = changes.flatMap(({ id, props }) =>
      props
        .filter((p) => w.properties.includes(p))
        .map((p) => ({
          eventId: Math.floor(Math.random() * 1e9),
          subscriptionId: 11,
          portalId: this.portalId,
          appId: 77,
          occurredAt: Date.now(),
          subscriptionType: 'company.propertyChange',
          attemptNumber: 0,
          objectId: Number(id),
          propertyName: p,
          propertyValue: this.companies.get(id)!.properties[p],
          changeSource: 'INTEGRATION',
          sourceId: '77',
        })),
    );
    if (events.length) void this.send(events);
  }

  /** Posts events to the webhook target, signed as HubSpot signs them (v3). */
  async send(events: unknown[], opts: { timestamp?: number; secret?: string } = {}): Promise<number> {
    const w = this.webhook!;
    const body = JSON.stringify(events);
    const ts = String(opts.timestamp ?? Date.now());
    this.webhooksSent++;
    const res = await fetch(w.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hubspot-signature-v3': hubspotSignatureV3(opts.secret ?? w.appSecret, 'POST', w.url, body, ts),
        'x-hubspot-request-timestamp': ts,
      },
      body,
    }).catch(() => undefined);
    await res?.text();
    return res?.status ?? 0;
  }
}

export async function startFakeHubspot(): Promise<FakeHubspot> {
  return new FakeHubspot().listen();
}
