// The closed catalogue of error codes: code -> HTTP status -> human message. Services throw
// ApiError; the one global error handler (http/plugins/errors.ts) renders it.

export const ERROR_CATALOGUE = {
  validation_failed: { status: 400, message: 'Invalid request' },
  invalid_json: { status: 400, message: 'Request body is not valid JSON' },
  search_filter_required: { status: 400, message: 'Your tier requires at least one search filter' },
  invalid_cursor: { status: 400, message: 'Invalid cursor' },
  cursor_query_mismatch: { status: 400, message: 'The cursor belongs to a different query' },
  bad_request: { status: 400, message: 'Bad request' },
  missing_api_key: { status: 401, message: 'Missing API key' },
  invalid_api_key: { status: 401, message: 'Invalid API key' },
  invalid_signature: { status: 401, message: 'The request signature is missing, wrong or too old' },
  trial_expired: { status: 402, message: 'Trial expired' },
  push_not_allowed: { status: 403, message: 'Your tier cannot push to destinations' },
  destination_inactive: { status: 409, message: 'Destination is inactive' },
  route_not_found: { status: 404, message: 'Route not found' },
  key_not_found: { status: 404, message: 'API key no longer exists' },
  company_not_found: { status: 404, message: 'Company not found' },
  destination_not_found: { status: 404, message: 'Destination not found' },
  notice_not_found: { status: 404, message: 'Procurement notice not found' },
  watchlist_not_found: { status: 404, message: 'Watchlist not found' },
  evidence_not_found: { status: 404, message: 'Evidence pack not found' },
  integration_not_configured: { status: 404, message: 'This integration is not configured on this server' },
  method_not_allowed: { status: 405, message: 'Method not allowed' },
  watchlist_name_taken: { status: 409, message: 'A watchlist with this name already exists' },
  watchlist_full: { status: 409, message: "The watchlist would exceed your tier's number of companies" },
  events_expired: { status: 410, message: 'Events after this seq are past retention; resume from resumeAfter' },
  too_many_streams: { status: 429, message: 'Too many open event streams for this key' },
  project_name_taken: { status: 409, message: 'projectName is already taken' },
  destination_name_taken: { status: 409, message: 'A destination with this name already exists' },
  payload_too_large: { status: 413, message: 'Request body is too large' },
  uri_too_long: { status: 414, message: 'Request URL or query string is too long' },
  unsupported_media_type: { status: 415, message: 'Unsupported Content-Type; send application/json' },
  rate_limited: { status: 429, message: 'Rate limit exceeded' },
  daily_quota_exceeded: { status: 429, message: 'Daily quota exceeded' },
  monthly_quota_exceeded: { status: 429, message: 'Monthly quota exceeded' },
  evidence_pack_limit: { status: 429, message: "Your tier's daily number of evidence packs is spent" },
  registration_limited: { status: 429, message: 'Too many registrations from this address; try again later' },
  live_fetch_budget_exceeded: {
    status: 429,
    message: "Your key's daily budget of live registry fetches is spent; stored companies are still served",
  },
  cursor_depth_exceeded: { status: 429, message: 'Too many consecutive pages; slow down' },
  internal_error: { status: 500, message: 'Internal server error' },
  query_failed: { status: 500, message: 'Query failed, retry' },
  destination_unreadable: {
    status: 500,
    message:
      'The destination config cannot be decrypted (was SECRET_KEY changed?); replace it with PUT or delete the destination',
  },
  upstream_unavailable: { status: 502, message: 'The upstream registry did not answer; retry later' },
  crm_unavailable: { status: 502, message: 'The CRM could not be written to; nothing was written' },
  service_unavailable: { status: 503, message: 'Service unavailable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly opts: {
      message?: string;
      details?: ErrorDetail[];
      headers?: Record<string, string | number>;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(opts.message ?? ERROR_CATALOGUE[code].message);
    this.status = ERROR_CATALOGUE[code].status;
  }
}

/** A 400 with one detail, for checks the schema cannot express. */
export function invalid(path: string, message: string): ApiError {
  return new ApiError('validation_failed', { details: [{ path, message }] });
}
