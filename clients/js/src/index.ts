// @nordic-company-data/client: typed client for the Nordic Company Data API.
export { NcdClient, type NcdClientOptions, type RequestOptions } from './client.ts';
export { NcdApiError, NcdNetworkError, NcdStreamEndedError, type NcdErrorDetail } from './errors.ts';
export { Paginated, type CursorPage } from './paginate.ts';
export { retryAfterMs, type Fetch, type TransportOptions } from './transport.ts';
export type * from './types.ts';
export { EventStream, type EventStreamOptions } from './event-stream.ts';
export { SseParser, type SseMessage } from './sse.ts';
export { CLIENT_OPERATIONS, type OperationKey } from './operations.ts';
