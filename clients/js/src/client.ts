// NcdClient: one method per API operation, grouped by resource, typed by the generated OpenAPI
// types. Every call goes through `request`, which is typed by path and method too, so an
// endpoint without a helper here is still reachable with checked parameters and result.
import { EventStream, type EventStreamOptions } from './event-stream.ts';
import type { paths } from './openapi.ts';
import { Paginated } from './paginate.ts';
import { Transport, type Fetch, type QueryValue, type TransportOptions } from './transport.ts';
import type {
  BodyOf,
  CompanyGetParams,
  CompanyRow,
  CompanySearchParams,
  DestinationInput,
  DestinationUpdate,
  EnrichPair,
  EventsParams,
  EventStreamParams,
  EvidenceListPage,
  EvidenceListParams,
  EvidenceRequest,
  EvidenceSummary,
  InspectionSearchParams,
  KeyRegistration,
  LicenseSearchParams,
  MarketContextParams,
  McpMessage,
  Method,
  OwnersParams,
  OwnershipChangesParams,
  PathParamsOf,
  QueryOf,
  ProcurementNotice,
  ProcurementPage,
  ProcurementSearchParams,
  ResponseOf,
  ScreeningAuditEntry,
  ScreeningAuditPage,
  ScreeningAuditParams,
  ScreeningMatchBody,
  ScreeningParams,
  UpdatesParams,
  WatchlistCompaniesParams,
  WatchlistCompany,
  WatchlistDeliveriesParams,
  WatchlistInput,
  WatchlistUpdate,
} from './types.ts';

export interface NcdClientOptions {
  /** Where the API runs, e.g. http://localhost:3000 or https://api.example.com. */
  baseUrl: string;
  /**
   * API key (sent as `Authorization: Bearer …`). Defaults to the `NCD_API_KEY` environment
   * variable where there is one (Node, Deno, Bun). Optional only for key registration and health.
   */
  apiKey?: string;
  /** A fetch implementation; defaults to the global fetch of Node 18+ and browsers. */
  fetch?: Fetch;
  /** Retries after the first attempt on 429 (and on 5xx/network errors for repeatable calls). Default 3. */
  maxRetries?: number;
  /** A 429 asking for a longer wait than this is thrown instead. Default 120 000 ms. */
  maxRetryDelayMs?: number;
  sleep?: TransportOptions['sleep'];
  onRetry?: TransportOptions['onRetry'];
  userAgent?: string;
}

export interface RequestOptions<P extends keyof paths, M extends Method> {
  params?: PathParamsOf<P, M>;
  query?: QueryOf<P, M>;
  body?: BodyOf<P, M>;
  headers?: Record<string, string>;
  /** Whether a 5xx or network failure may be retried (default: not for POST). */
  repeatable?: boolean;
}

type Row<P extends { data: unknown[] }> = P['data'][number];

/** NCD_API_KEY of the process, without assuming Node's types (the client also runs in browsers). */
function keyFromEnvironment(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const key = env?.NCD_API_KEY?.trim();
  return key ? key : undefined;
}

export class NcdClient {
  readonly #http: Transport;

  constructor(options: NcdClientOptions) {
    this.#http = new Transport({ ...options, apiKey: options.apiKey ?? keyFromEnvironment() });
  }

  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** Any operation of the API document, by path and method. */
  request<P extends keyof paths, M extends Method>(
    method: M,
    path: P,
    opts: RequestOptions<P, M> = {},
  ): Promise<ResponseOf<P, M>> {
    const params = (opts.params ?? {}) as Record<string, string | number>;
    const concrete = (path as string).replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = params[name];
      if (v === undefined || v === '') throw new TypeError(`${name} is required for ${path as string}`);
      return encodeURIComponent(String(v));
    });
    return this.#http.request<ResponseOf<P, M>>({
      method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
      path: concrete,
      query: opts.query as Record<string, QueryValue> | undefined,
      body: opts.body,
      headers: opts.headers,
      repeatable: opts.repeatable,
    });
  }

  readonly companies = {
    /** Full record of one company (404 `company_not_found` when the registry does not know it). */
    get: (orgNumber: string, query: CompanyGetParams = {}) =>
      this.request('get', '/api/companies/{orgNumber}', { params: { orgNumber }, query }),
    /** Search; iterate it for every row across pages, or call `.page(cursor?)` for one page. */
    search: (params: CompanySearchParams = {}) =>
      new Paginated<CompanyRow, ResponseOf<'/api/companies', 'get'>>((cursor) =>
        this.request('get', '/api/companies', { query: { ...params, cursor } }),
      ),
    /**
     * Full records for up to 100 companies in one call. Pass Norwegian org numbers, or
     * `{ pairs: [{ orgNumber, country }] }` for Finnish and Swedish companies.
     */
    enrich: (input: string[] | { pairs: EnrichPair[] }) =>
      this.request('post', '/api/companies/enrich', {
        body: Array.isArray(input) ? { orgNumbers: input } : { pairs: input.pairs },
        // Reading records changes nothing, so a lost response may be asked for again.
        repeatable: true,
      }),
    /**
     * Organisation numbers for up to 100 company names: ranked candidates with explained scores,
     * and `match` when the top one is clear. One call counts as one request.
     */
    match: (body: BodyOf<'/api/companies/match', 'post'>) =>
      this.request('post', '/api/companies/match', {
        body,
        // Matching changes nothing, so a lost response may be asked for again.
        repeatable: true,
      }),
    shareholders: (orgNumber: string, query: QueryOf<'/api/companies/{orgNumber}/shareholders', 'get'> = {}) =>
      this.request('get', '/api/companies/{orgNumber}/shareholders', { params: { orgNumber }, query }),
    group: (orgNumber: string, query: QueryOf<'/api/companies/{orgNumber}/group', 'get'> = {}) =>
      this.request('get', '/api/companies/{orgNumber}/group', { params: { orgNumber }, query }),
    /** Ultimate owners through chains of holdings (Norway, Denmark), with each path's share. */
    owners: (orgNumber: string, query: OwnersParams = {}) =>
      this.request('get', '/api/companies/{orgNumber}/owners', { params: { orgNumber }, query }),
    /** Owners who came, went or changed their share between register years. */
    ownershipChanges: (orgNumber: string, query: OwnershipChangesParams = {}) =>
      this.request('get', '/api/companies/{orgNumber}/ownership-changes', { params: { orgNumber }, query }),
  };

  /** Companies changed since a time (ISO 8601), oldest first, across pages. */
  updates(since: string | Date, params: UpdatesParams = {}) {
    const s = since instanceof Date ? since.toISOString() : since;
    return new Paginated<Row<ResponseOf<'/api/updates', 'get'>>, ResponseOf<'/api/updates', 'get'>>((cursor) =>
      this.request('get', '/api/updates', { query: { ...params, since: s, cursor } }),
    );
  }

  readonly shareholders = {
    /** Companies a shareholder (by org number) owns shares in. */
    byOwner: (
      shareholderOrgNumber: string,
      query: Omit<QueryOf<'/api/shareholders/by-owner', 'get'>, 'shareholderOrgNumber'> = {},
    ) => this.request('get', '/api/shareholders/by-owner', { query: { ...query, shareholderOrgNumber } }),
  };

  readonly keys = {
    /** Registers a free-tier key; the raw key is in the answer once. Needs no key. */
    register: (body: KeyRegistration) => this.request('post', '/api/keys/register', { body }),
    /** Deactivates the presented key and returns a new one. Never retried on network errors. */
    rotate: () => this.request('post', '/api/keys/rotate'),
    usage: () => this.request('get', '/api/keys/usage'),
    /** The OpenRefine reconciliation service URL of the presented key (it stands for the key: keep it secret). */
    reconcileUrl: () => this.request('get', '/api/keys/reconcile-url'),
  };

  readonly accessRequests = {
    create: (body: BodyOf<'/api/access-requests', 'post'>) => this.request('post', '/api/access-requests', { body }),
  };

  readonly inspections = {
    search: (params: InspectionSearchParams = {}) =>
      new Paginated<Row<ResponseOf<'/api/inspections', 'get'>>, ResponseOf<'/api/inspections', 'get'>>((cursor) =>
        this.request('get', '/api/inspections', { query: { ...params, cursor } }),
      ),
  };

  readonly licenses = {
    search: (params: LicenseSearchParams = {}) =>
      new Paginated<Row<ResponseOf<'/api/licenses', 'get'>>, ResponseOf<'/api/licenses', 'get'>>((cursor) =>
        this.request('get', '/api/licenses', { query: { ...params, cursor } }),
      ),
  };

  readonly screening = {
    /** PEP/sanctions screening of a company and its people. */
    get: (orgNumber: string, query: ScreeningParams = {}) =>
      this.request('get', '/api/screening/{orgNumber}', { params: { orgNumber }, query }),
    /** Screens any names (people, companies) by key, e.g. `{ queries: { a: { schema: 'Person', name } } }`. */
    match: (body: ScreeningMatchBody) =>
      this.request('post', '/api/screening/match', {
        body,
        // Screening changes nothing but the audit trail, so a lost response may be asked for again.
        repeatable: true,
      }),
    /** The project's screening audit trail, oldest first, across pages. */
    audit: (params: ScreeningAuditParams = {}) =>
      new Paginated<ScreeningAuditEntry, ScreeningAuditPage>((cursor) =>
        this.request('get', '/api/screening/audit', { query: { ...params, cursor } }),
      ),
  };

  readonly evidence = {
    /** Builds and signs a KYB evidence pack for one company (never retried: each call makes a pack). */
    create: (orgNumber: string, body: EvidenceRequest = {}) =>
      this.request('post', '/api/companies/{orgNumber}/evidence', { params: { orgNumber }, body }),
    /** The project's evidence packs, oldest first, across pages. */
    list: (params: EvidenceListParams = {}) =>
      new Paginated<EvidenceSummary, EvidenceListPage>((cursor) =>
        this.request('get', '/api/evidence', { query: { ...params, cursor } }),
      ),
    /** One signed pack, as created. */
    get: (id: string) => this.request('get', '/api/evidence/{id}', { params: { id } }),
    /** The same pack as a PDF for people (the bytes of `/api/evidence/{id}.pdf`). */
    pdf: async (id: string): Promise<Uint8Array> => {
      if (!id) throw new TypeError('id is required for /api/evidence/{id}.pdf');
      const res = await this.#http.open({
        method: 'GET',
        path: `/api/evidence/${encodeURIComponent(id)}.pdf`,
        accept: 'application/pdf',
      });
      return new Uint8Array(await res.arrayBuffer());
    },
    /** The public keys that verify packs' signatures (no key needed). */
    jwks: () => this.request('get', '/.well-known/jwks.json'),
  };

  readonly procurement = {
    /** Public procurement notices (Doffin, TED), across pages. */
    search: (params: ProcurementSearchParams = {}) =>
      new Paginated<ProcurementNotice, ProcurementPage>((cursor) =>
        this.request('get', '/api/procurement', { query: { ...params, cursor } }),
      ),
    /** One notice by its id (Doffin or TED). */
    get: (noticeId: string) => this.request('get', '/api/procurement/{noticeId}', { params: { noticeId } }),
  };

  readonly events = {
    /** One page of company events after a seq; pass `nextAfter` as `after` for the next. */
    list: (query: EventsParams = {}) => this.request('get', '/api/events', { query }),
    /**
     * The live event stream (SSE) as an async iterable of events; it reconnects after a dropped
     * connection with `Last-Event-ID`, and ends when `signal` is aborted.
     */
    stream: (query: EventStreamParams = {}, opts: EventStreamOptions = {}) => new EventStream(this.#http, query, opts),
  };

  readonly watchlists = {
    list: () => this.request('get', '/api/watchlists'),
    get: (name: string) => this.request('get', '/api/watchlists/{name}', { params: { name } }),
    create: (body: WatchlistInput) => this.request('post', '/api/watchlists', { body }),
    update: (name: string, body: WatchlistUpdate) =>
      this.request('put', '/api/watchlists/{name}', { params: { name }, body }),
    delete: (name: string) => this.request('delete', '/api/watchlists/{name}', { params: { name } }),
    /**
     * A watchlist's companies (orgNumber, country, stored name or null, addedAt), in
     * (country, orgNumber) order; iterate it for every company, or call `.page(cursor?)`.
     */
    companies: (name: string, params: WatchlistCompaniesParams = {}) =>
      new Paginated<
        Row<ResponseOf<'/api/watchlists/{name}/companies', 'get'>>,
        ResponseOf<'/api/watchlists/{name}/companies', 'get'>
      >((cursor) =>
        this.request('get', '/api/watchlists/{name}/companies', { params: { name }, query: { ...params, cursor } }),
      ),
    /** Adds up to 1,000 companies; ones already on the list are left as they are. */
    addCompanies: (name: string, companies: WatchlistCompany[]) =>
      this.request('post', '/api/watchlists/{name}/companies', {
        params: { name },
        body: { companies },
        // Adding a pair twice leaves one: a lost response may be asked for again.
        repeatable: true,
      }),
    removeCompanies: (name: string, companies: WatchlistCompany[]) =>
      this.request('delete', '/api/watchlists/{name}/companies', { params: { name }, body: { companies } }),
    /** Alert deliveries to the watchlist's destination, newest first. */
    deliveries: (name: string, query: WatchlistDeliveriesParams = {}) =>
      this.request('get', '/api/watchlists/{name}/deliveries', { params: { name }, query }),
  };

  readonly mcp = {
    /**
     * One JSON-RPC message to the MCP endpoint, answered as JSON. For a full MCP session (tool
     * discovery, notifications) an MCP SDK client against `${baseUrl}/api/mcp` fits better.
     */
    send: (message: McpMessage) =>
      this.request('post', '/api/mcp', {
        body: message,
        // Streamable HTTP asks for both; this stateless server answers JSON.
        headers: { accept: 'application/json, text/event-stream' },
      }),
  };

  readonly enrichment = {
    /** Domain-enrichment results (offset paginated). */
    list: (query: QueryOf<'/api/enrichment', 'get'> = {}) => this.request('get', '/api/enrichment', { query }),
  };

  readonly destinations = {
    list: () => this.request('get', '/api/destinations'),
    get: (name: string) => this.request('get', '/api/destinations/{name}', { params: { name } }),
    create: (body: DestinationInput) => this.request('post', '/api/destinations', { body }),
    update: (name: string, body: DestinationUpdate) =>
      this.request('put', '/api/destinations/{name}', { params: { name }, body }),
    delete: (name: string) => this.request('delete', '/api/destinations/{name}', { params: { name } }),
  };

  /** Sends full records of up to 100 companies to a destination. */
  push(destinationName: string, orgNumbers: string[]) {
    return this.request('post', '/api/push/{destinationName}', {
      params: { destinationName },
      body: { orgNumbers } as BodyOf<'/api/push/{destinationName}', 'post'>,
    });
  }

  /** Statistics of a municipality and an industry (the four bureaus), beside the store's own counts. */
  marketContext(query: MarketContextParams = {}) {
    return this.request('get', '/api/market-context', { query });
  }

  municipalities(query: QueryOf<'/api/municipalities', 'get'> = {}) {
    return this.request('get', '/api/municipalities', { query });
  }

  /** What the store holds per country and category (no key needed). */
  coverage() {
    return this.request('get', '/api/coverage');
  }

  /** Service health; `syncSecret` unlocks the diagnostics. */
  health(opts: { syncSecret?: string } = {}) {
    return this.request('get', '/api/health', {
      headers: opts.syncSecret ? { 'x-sync-secret': opts.syncSecret } : undefined,
    });
  }
}
