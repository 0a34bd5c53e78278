// A local fake of Bolagsverket's high-value-datasets API v1 on 127.0.0.1, with its OAuth2 token
// endpoint: `POST /oauth2/token` (client credentials as HTTP Basic auth, grant_type
// client_credentials) issues short bearer tokens; `POST /vardefulla-datamangder/v1/organisationer`
// and `/dokumentlista` (JSON body { identitetsbeteckning }) and `GET /dokument/{id}` (the report
// ZIP) require one. Test seams: 429s with a Retry-After, a failure from the Nth document on, an
// expired token, and a log of every request with its time (the pace).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOrganisation {
  reklamsparr: 'JA' | 'NEJ' | null;
  documents: { dokumentId: string; periodTo: string; registeredAt: string; zip: Buffer }[];
}

export const FAKE_CLIENT = { id: 'ncd-test-client', secret: 's3cret-value-for-tests' };

export class FakeBolagsverket {
  organisations = new Map<string, FakeOrganisation>();
  tokens = new Set<string>();
  tokensIssued = 0;
  rateLimitNext = 0;
  retryAfter = '1';
  failDocumentsFrom: number | null = null;
  documentRequests = 0;
  requests: { method: string; path: string; org: string | null; status: number; at: number }[] = [];
  private server = createServer((req, res) => void this.handle(req, res));

  get url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  get env() {
    return {
      BOLAGSVERKET_BASE_URL: `${this.url}/vardefulla-datamangder/v1`,
      BOLAGSVERKET_TOKEN_URL: `${this.url}/oauth2/token`,
      BOLAGSVERKET_CLIENT_ID: FAKE_CLIENT.id,
      BOLAGSVERKET_CLIENT_SECRET: FAKE_CLIENT.secret,
      BOLAGSVERKET_REQUESTS_PER_MINUTE: '60000',
    };
  }
  get documentsFetched() {
    return this.requests
      .filter((r) => r.path.startsWith('/vardefulla-datamangder/v1/dokument/') && r.status === 200)
      .map((r) => r.path.split('/').pop()!);
  }
  /** Forgets every issued token (they expired). */
  expireTokens() {
    this.tokens.clear();
  }

  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }
  async close() {
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    let org: string | null = null;
    const send = (
      status: number,
      body: string | Buffer,
      type = 'application/json',
      headers: Record<string, string> = {},
    ) => {
      this.requests.push({ method: req.method ?? 'GET', path: url.pathname, org, status, at: Date.now() });
      res.writeHead(status, { 'content-type': type, ...headers }).end(body);
    };
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      return send(429, JSON.stringify({ message: 'Rate limit exceeded' }), 'application/json', {
        'retry-after': this.retryAfter,
      });
    }
    if (url.pathname === '/oauth2/token' && req.method === 'POST') {
      const form = new URLSearchParams(raw);
      const auth = req.headers.authorization ?? '';
      const [id, secret] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
        .toString('utf8')
        .split(':')
        .map(decodeURIComponent);
      if (!auth.startsWith('Basic ') || id !== FAKE_CLIENT.id || secret !== FAKE_CLIENT.secret)
        return send(401, JSON.stringify({ error: 'invalid_client' }));
      if (form.get('grant_type') !== 'client_credentials')
        return send(400, JSON.stringify({ error: 'unsupported_grant_type' }));
      if (!(form.get('scope') ?? '').split(' ').includes('vardefulla-datamangder:read'))
        return send(400, JSON.stringify({ error: 'invalid_scope' }));
      const token = randomBytes(16).toString('hex');
      this.tokens.add(token);
      this.tokensIssued++;
      return send(
        200,
        JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600, scope: form.get('scope') }),
      );
    }
    if (!url.pathname.startsWith('/vardefulla-datamangder/v1/'))
      return send(404, JSON.stringify({ message: 'not found' }));
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!this.tokens.has(bearer)) return send(401, JSON.stringify({ message: 'Invalid Credentials' }));
    const path = url.pathname.slice('/vardefulla-datamangder/v1/'.length);
    if (req.method === 'POST' && (path === 'organisationer' || path === 'dokumentlista')) {
      let body: { identitetsbeteckning?: string };
      try {
        body = JSON.parse(raw);
      } catch {
        return send(400, JSON.stringify({ message: 'invalid JSON' }));
      }
      org = body.identitetsbeteckning ?? null;
      const o = org ? this.organisations.get(org) : undefined;
      if (!o) return send(404, JSON.stringify({ message: 'Organisation not found' }));
      if (path === 'organisationer')
        return send(
          200,
          JSON.stringify({
            organisationer: [
              {
                organisationsidentitet: {
                  identitetsbeteckning: org,
                  typ: { kod: 'ORGNR', klartext: 'Organisationsnummer' },
                },
                organisationsform: { kod: 'AB', klartext: 'Aktiebolag', dataproducent: 'Bolagsverket', fel: null },
                reklamsparr: o.reklamsparr
                  ? {
                      kod: o.reklamsparr,
                      klartext: o.reklamsparr === 'JA' ? 'Ja' : 'Nej',
                      dataproducent: 'SCB',
                      fel: null,
                    }
                  : null,
              },
            ],
          }),
        );
      return send(
        200,
        JSON.stringify({
          dokument: o.documents.map((d) => ({
            dokumentId: d.dokumentId,
            filformat: 'application/zip',
            rapporteringsperiodTom: d.periodTo,
            registreringstidpunkt: d.registeredAt,
          })),
        }),
      );
    }
    if (req.method === 'GET' && path.startsWith('dokument/')) {
      this.documentRequests++;
      if (this.failDocumentsFrom !== null && this.documentRequests >= this.failDocumentsFrom)
        return send(500, JSON.stringify({ message: 'Internal Server Error' }));
      const id = decodeURIComponent(path.slice('dokument/'.length));
      for (const [n, o] of this.organisations) {
        const d = o.documents.find((x) => x.dokumentId === id);
        if (d) {
          org = n;
          return send(200, d.zip, 'application/zip');
        }
      }
      return send(404, JSON.stringify({ message: 'Dokument not found' }));
    }
    send(404, JSON.stringify({ message: 'not found' }));
  }
}

export const startFakeBolagsverket = () => new FakeBolagsverket().start();
