// Friendly names for the generated OpenAPI types (src/openapi.ts), so callers need not index
// into `paths` themselves.
import type { components, paths } from './openapi.ts';

export type { components, paths };
export type Method = 'get' | 'post' | 'put' | 'delete';

type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonContent<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;
type Responses<O> = O extends { responses: infer R } ? R : never;

/** The JSON of a successful response (union over 2xx statuses). */
export type ResponseOf<P extends keyof paths, M extends Method> = JsonContent<
  Responses<Operation<P, M>>[Extract<keyof Responses<Operation<P, M>>, SuccessStatus>]
>;
/** Query parameters. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** JSON request body. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** Path parameters. */
export type PathParamsOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { path?: infer X } } ? NonNullable<X> : never;

export type CompanyRecord = components['schemas']['CompanyRecord'];
export type CompanyLookup = components['schemas']['CompanyLookup'];
export type CompanyRow = components['schemas']['CompanyRow'];
export type Financial = components['schemas']['Financial'];
export type Role = components['schemas']['Role'];
export type SubUnit = components['schemas']['SubUnit'];
export type License = components['schemas']['License'];
export type ErrorBody = components['schemas']['ErrorBody'];

export type CompanySearchParams = Omit<QueryOf<'/api/companies', 'get'>, 'cursor'>;
export type CompanySearchPage = ResponseOf<'/api/companies', 'get'>;
export type CompanyGetParams = QueryOf<'/api/companies/{orgNumber}', 'get'>;
export type EnrichBody = BodyOf<'/api/companies/enrich', 'post'>;
export type EnrichResult = ResponseOf<'/api/companies/enrich', 'post'>;
export type EnrichPair = NonNullable<EnrichBody['pairs']>[number];
export type UpdatesParams = Omit<QueryOf<'/api/updates', 'get'>, 'since' | 'cursor'>;
export type UpdatesPage = ResponseOf<'/api/updates', 'get'>;
export type KeyUsage = ResponseOf<'/api/keys/usage', 'get'>;
export type KeyRegistration = BodyOf<'/api/keys/register', 'post'>;
export type InspectionSearchParams = Omit<QueryOf<'/api/inspections', 'get'>, 'cursor'>;
export type LicenseSearchParams = Omit<QueryOf<'/api/licenses', 'get'>, 'cursor'>;
export type ScreeningParams = QueryOf<'/api/screening/{orgNumber}', 'get'>;
export type ScreeningResult = ResponseOf<'/api/screening/{orgNumber}', 'get'>;
export type DestinationInput = BodyOf<'/api/destinations', 'post'>;
export type DestinationUpdate = BodyOf<'/api/destinations/{name}', 'put'>;
export type Destination = ResponseOf<'/api/destinations/{name}', 'get'>;
export type PushResult = ResponseOf<'/api/push/{destinationName}', 'post'>;
export type WatchlistCompaniesParams = Omit<QueryOf<'/api/watchlists/{name}/companies', 'get'>, 'cursor'>;
export type WatchlistCompaniesPage = ResponseOf<'/api/watchlists/{name}/companies', 'get'>;

type RowOf<P extends { data: unknown[] }> = P['data'][number];

export type OwnersParams = QueryOf<'/api/companies/{orgNumber}/owners', 'get'>;
export type Owners = ResponseOf<'/api/companies/{orgNumber}/owners', 'get'>;
export type OwnershipChangesParams = QueryOf<'/api/companies/{orgNumber}/ownership-changes', 'get'>;
export type OwnershipChanges = ResponseOf<'/api/companies/{orgNumber}/ownership-changes', 'get'>;
export type ReconcileUrl = ResponseOf<'/api/keys/reconcile-url', 'get'>;

export type ScreeningMatchBody = BodyOf<'/api/screening/match', 'post'>;
export type ScreeningMatchResult = ResponseOf<'/api/screening/match', 'post'>;
export type ScreeningAuditParams = Omit<QueryOf<'/api/screening/audit', 'get'>, 'cursor'>;
export type ScreeningAuditPage = ResponseOf<'/api/screening/audit', 'get'>;
export type ScreeningAuditEntry = RowOf<ScreeningAuditPage>;

export type EvidenceRequest = BodyOf<'/api/companies/{orgNumber}/evidence', 'post'>;
export type EvidencePack = ResponseOf<'/api/evidence/{id}', 'get'>;
export type EvidenceListParams = Omit<QueryOf<'/api/evidence', 'get'>, 'cursor'>;
export type EvidenceListPage = ResponseOf<'/api/evidence', 'get'>;
export type EvidenceSummary = RowOf<EvidenceListPage>;
export type Jwks = ResponseOf<'/.well-known/jwks.json', 'get'>;

export type MarketContextParams = QueryOf<'/api/market-context', 'get'>;
export type MarketContext = ResponseOf<'/api/market-context', 'get'>;

export type ProcurementSearchParams = Omit<QueryOf<'/api/procurement', 'get'>, 'cursor'>;
export type ProcurementPage = ResponseOf<'/api/procurement', 'get'>;
export type ProcurementNotice = components['schemas']['ProcurementNotice'];
export type ProcurementNoticeDetail = ResponseOf<'/api/procurement/{noticeId}', 'get'>;

export type EventsParams = QueryOf<'/api/events', 'get'>;
export type EventsPage = ResponseOf<'/api/events', 'get'>;
/** One company event, as GET /api/events lists it and the stream sends it. */
export type StreamedEvent = RowOf<EventsPage>;
export type EventStreamParams = QueryOf<'/api/events/stream', 'get'>;

export type WatchlistInput = BodyOf<'/api/watchlists', 'post'>;
export type WatchlistUpdate = BodyOf<'/api/watchlists/{name}', 'put'>;
export type Watchlist = ResponseOf<'/api/watchlists/{name}', 'get'>;
export type WatchlistCompany = BodyOf<'/api/watchlists/{name}/companies', 'post'>['companies'][number];
export type WatchlistCompaniesResult = ResponseOf<'/api/watchlists/{name}/companies', 'post'>;
export type WatchlistDeliveriesParams = QueryOf<'/api/watchlists/{name}/deliveries', 'get'>;
export type WatchlistDeliveries = ResponseOf<'/api/watchlists/{name}/deliveries', 'get'>;

export type McpMessage = BodyOf<'/api/mcp', 'post'>;
export type McpResponse = ResponseOf<'/api/mcp', 'post'>;
