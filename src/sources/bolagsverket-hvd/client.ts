// Bolagsverket's API for high-value datasets (värdefulla datamängder, v1; free, OAuth2 client
// credentials, 60 requests a minute per client):
//   POST {token URL} grant_type=client_credentials (client id and secret as HTTP Basic auth)
//     → { access_token, expires_in }; kept until a minute before it expires, fetched again on a 401;
//   POST /organisationer { identitetsbeteckning } → { organisationer: [{ …, reklamsparr: { kod } }] };
//   POST /dokumentlista { identitetsbeteckning } → { dokument: [{ dokumentId, filformat,
//     rapporteringsperiodTom, registreringstidpunkt }] }, the digitally filed annual reports;
//   GET /dokument/{dokumentId} → the report as a ZIP holding its iXBRL (XHTML) file.
// Every request, the token's included, is paced to the client's budget and a 429 waited out.
import { createPacedClient, type PacedResponse } from '../paced-http.ts';
import { UpstreamError } from '../upstream-http.ts';

export interface BolagsverketApiOptions {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  requestsPerMinute: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface BolagsverketDocument {
  dokumentId: string;
  filformat: string | null;
  periodTo: string | null;
  registeredAt: string | null;
}

const SCOPE = 'vardefulla-datamangder:read vardefulla-datamangder:ping';

/** reklamsparr of an organisation record: true (JA), false (NEJ), null when absent or not given. */
export function reklamsparrOf(body: unknown): boolean | null {
  const org = (body as { organisationer?: { reklamsparr?: { kod?: unknown } | null }[] } | null)?.organisationer?.[0];
  const kod = org?.reklamsparr?.kod;
  return kod === 'JA' ? true : kod === 'NEJ' ? false : null;
}

/** The filed reports of a dokumentlista answer that carry an id. */
export function documentsOf(body: unknown): BolagsverketDocument[] {
  const list = (body as { dokument?: unknown } | null)?.dokument;
  if (!Array.isArray(list)) throw new UpstreamError('malformed', 'dokumentlista: no dokument[] in the answer');
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  return list
    .map((d: Record<string, unknown>) => ({
      dokumentId: str(d?.dokumentId) ?? '',
      filformat: str(d?.filformat),
      periodTo: str(d?.rapporteringsperiodTom)?.slice(0, 10) ?? null,
      registeredAt: str(d?.registreringstidpunkt),
    }))
    .filter((d) => /^[\w.-]{1,200}$/.test(d.dokumentId));
}

export function createBolagsverketApi(opts: BolagsverketApiOptions) {
  const base = opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`;
  const http = createPacedClient({
    requestsPerMinute: opts.requestsPerMinute,
    timeoutMs: opts.timeoutMs,
    sleep: opts.sleep,
  });
  let token: { value: string; until: number } | null = null;
  const stats = { tokens: 0 };

  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const url = new URL(opts.tokenUrl);
    const basic = Buffer.from(`${encodeURIComponent(opts.clientId)}:${encodeURIComponent(opts.clientSecret)}`).toString(
      'base64',
    );
    const res = await http.send(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: SCOPE }).toString(),
    });
    stats.tokens++;
    // The answer's body is never echoed: it may carry the token or describe the credentials.
    if (res.status === 400 || res.status === 401)
      throw new UpstreamError('status', `token endpoint refused the client credentials (${res.status})`, res.status);
    if (res.status < 200 || res.status >= 300)
      throw new UpstreamError('status', `token endpoint answered ${res.status}`, res.status);
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new UpstreamError('malformed', 'token endpoint: the answer is not JSON');
    }
    if (typeof body.access_token !== 'string' || body.access_token === '')
      throw new UpstreamError('malformed', 'token endpoint: no access_token');
    const life = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    token = { value: body.access_token, until: Date.now() + Math.max(1, life - 60) * 1000 };
    return token.value;
  }

  /** One API request with the bearer token; a 401 gets one fresh token and one more try. */
  async function call(
    path: string,
    init: { method: 'GET' | 'POST'; json?: unknown; accept: string },
  ): Promise<PacedResponse> {
    const url = new URL(path, base);
    for (let attempt = 0; ; attempt++) {
      const res = await http.send(url, {
        method: init.method,
        headers: {
          authorization: `Bearer ${await accessToken()}`,
          accept: init.accept,
          ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      if (res.status === 401 && attempt === 0) {
        token = null;
        continue;
      }
      return res;
    }
  }

  async function postJson(path: string, orgNumber: string): Promise<unknown | null> {
    const res = await call(path, {
      method: 'POST',
      json: { identitetsbeteckning: orgNumber },
      accept: 'application/json',
    });
    // The organisation is not in the register (or files nothing): nothing to read.
    if (res.status === 404) return null;
    if (res.status < 200 || res.status >= 300)
      throw new UpstreamError('status', `${path} answered ${res.status}`, res.status);
    try {
      return JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new UpstreamError('malformed', `${path}: the answer is not JSON`);
    }
  }

  return {
    stats: { paced: http.stats, token: stats },

    async marketingProtected(orgNumber: string): Promise<boolean | null> {
      const body = await postJson('organisationer', orgNumber);
      return body === null ? null : reklamsparrOf(body);
    },

    async documents(orgNumber: string): Promise<BolagsverketDocument[]> {
      const body = await postJson('dokumentlista', orgNumber);
      return body === null ? [] : documentsOf(body);
    },

    /** The report's ZIP; a 4xx is `{ missing: status }`, other failures throw UpstreamError. */
    async document(id: string): Promise<{ zip: Buffer } | { missing: number }> {
      const res = await call(`dokument/${encodeURIComponent(id)}`, {
        method: 'GET',
        accept: 'application/zip, */*;q=0.5',
      });
      if (res.status >= 400 && res.status < 500) return { missing: res.status };
      if (res.status < 200 || res.status >= 300)
        throw new UpstreamError('status', `dokument answered ${res.status}`, res.status);
      return { zip: res.body };
    },
  };
}

export type BolagsverketApi = ReturnType<typeof createBolagsverketApi>;
