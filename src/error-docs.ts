// What each error code of the catalogue (errors.ts) means and what a client should do about it.
// Read by the errors page (GET /errors) and by the OpenAPI document's per-status error
// responses. A code added to the catalogue without an entry here is still listed everywhere,
// with the catalogue's message as its meaning (the errors-page test names such codes).
import { ERROR_CATALOGUE, type ErrorCode } from './errors.ts';

interface ErrorDoc {
  /** When the server answers with this code. */
  meaning: string;
  /** What the client should do. */
  action: string;
  /** Only operations whose path matches answer with this code (absent: any operation). */
  paths?: RegExp;
  /** Only keyed operations answer with this code. */
  keyed?: boolean;
  /** Never an operation's answer: the route itself does not exist or refuses the method. */
  unrouted?: boolean;
}

const COMPANY_PATHS = /\/companies|\/shareholders|\/screening|\/push|\/web-profile|\/inspections|\/licenses/;

export const ERROR_DOCS: Partial<Record<ErrorCode, ErrorDoc>> = {
  validation_failed: {
    meaning: 'A parameter or body field is missing, malformed or out of range; `details[]` names each one.',
    action: 'Fix the fields listed in `details[]` (path and message) and send the request again.',
  },
  invalid_json: {
    meaning: 'The request body could not be parsed as JSON, or its Content-Length did not match.',
    action: 'Send a well-formed JSON document with `Content-Type: application/json`.',
  },
  search_filter_required: {
    meaning: 'Free-tier searches must narrow the result with at least one filter.',
    action:
      'Add a filter such as `q`, `municipality`, `nace` or `orgForm` (`country`, `sort`, `order`, `limit`, `cursor` and `include` do not count; an unknown parameter is a 400), or ask for a higher tier.',
    paths: /^\/api\/companies$/,
  },
  invalid_cursor: {
    meaning: 'The `cursor` is not one this server issued, or it was altered.',
    action: 'Pass back `nextCursor` exactly as received, or start again without a cursor.',
    paths: /\/companies$|\/updates|\/shareholders|\/inspections|\/licenses/,
  },
  cursor_query_mismatch: {
    meaning: 'The `cursor` was issued for a different set of query parameters.',
    action: 'Keep every parameter the same while paging, or start again without a cursor.',
    paths: /\/companies$|\/updates|\/shareholders|\/inspections|\/licenses/,
  },
  bad_request: {
    meaning: 'The HTTP request itself was malformed (for example a bad header), before any route ran.',
    action: 'Check the request line and headers your client sends.',
    unrouted: true,
  },
  missing_api_key: {
    meaning: 'No `Authorization: Bearer <key>` header was sent.',
    action: 'Register a key with `POST /api/keys/register` and send it as a Bearer token.',
    keyed: true,
  },
  invalid_api_key: {
    meaning: 'The key is unknown, was rotated or was deactivated.',
    action: 'Use the current key; a rotated key stops working at once. Register a new one if it was lost.',
    keyed: true,
  },
  trial_expired: {
    meaning: 'The free trial of this key has ended (`TRIAL_DAYS` on this server).',
    action: 'Follow `upgradeUrl` to ask for a paid tier.',
    keyed: true,
  },
  push_not_allowed: {
    meaning: "The key's tier cannot push records to destinations.",
    action: 'Ask for a tier with push through `POST /api/access-requests`.',
    paths: /\/push|\/destinations/,
  },
  destination_inactive: {
    meaning: 'The destination exists but was deactivated.',
    action: 'Re-activate it with `PUT /api/destinations/{name}` before pushing to it.',
    paths: /\/push|\/destinations/,
  },
  route_not_found: {
    meaning: 'No operation exists at this path.',
    action: 'Check the path against the API reference at `/docs`.',
    unrouted: true,
  },
  key_not_found: {
    meaning: 'The key was deleted while the request was in flight.',
    action: 'Register a new key.',
    paths: /\/keys\//,
  },
  company_not_found: {
    meaning: 'No company has this organisation number (in the store, nor at the registry for Norway).',
    action: 'Check the number and `country`; Finnish and Swedish companies are served only after a bulk sync.',
    paths: COMPANY_PATHS,
  },
  destination_not_found: {
    meaning: 'No destination of this key has this name.',
    action: 'List destinations with `GET /api/destinations` and use one of their names.',
    paths: /\/push|\/destinations/,
  },
  method_not_allowed: {
    meaning: 'The path exists but does not accept this HTTP method.',
    action: 'Use a method the API reference lists for the path.',
    unrouted: true,
  },
  project_name_taken: {
    meaning: 'An active key already uses this `projectName` (case-insensitive).',
    action: 'Choose another project name.',
    paths: /\/keys\/register/,
  },
  destination_name_taken: {
    meaning: 'This key already has a destination with this name.',
    action: 'Choose another name, or replace the existing destination with `PUT`.',
    paths: /\/destinations/,
  },
  payload_too_large: {
    meaning: 'The request body exceeds the server limit (`HTTP_BODY_LIMIT_BYTES`).',
    action: 'Send fewer items per request.',
  },
  uri_too_long: {
    meaning: 'The URL or query string exceeds the server limit (`HTTP_MAX_URL_LENGTH`).',
    action: 'Shorten the query, or send the data in a request body where the operation takes one.',
  },
  unsupported_media_type: {
    meaning: 'The body was sent with a Content-Type other than JSON.',
    action: 'Send `Content-Type: application/json`.',
  },
  rate_limited: {
    meaning: "More requests per minute than the key's tier allows.",
    action: 'Wait `Retry-After` seconds (also in `retryAfter`); the `RateLimit-*` headers show the window.',
    keyed: true,
  },
  daily_quota_exceeded: {
    meaning: "The key's daily request quota is used up.",
    action: 'Wait until midnight UTC (`Retry-After`), or ask for a higher tier.',
    keyed: true,
  },
  monthly_quota_exceeded: {
    meaning: "The key's monthly request quota is used up.",
    action: 'Wait for the next month (`Retry-After`), or ask for a higher tier.',
    keyed: true,
  },
  registration_limited: {
    meaning: 'Too many key registrations or access requests from this address in the last hour.',
    action: 'Wait `Retry-After` seconds before registering again.',
    paths: /\/keys\/register|\/access-requests/,
  },
  live_fetch_budget_exceeded: {
    meaning: "The key's daily budget of live registry fetches is spent; stored companies are still served.",
    action: 'Retry tomorrow (`Retry-After`), or ask only for companies already in the store.',
    paths: /\/companies/,
  },
  cursor_depth_exceeded: {
    meaning: 'Too many consecutive pages were fetched too fast with one cursor chain.',
    action: 'Slow down, narrow the query, or use the change feed for bulk copies.',
    paths: /\/companies$|\/updates/,
  },
  internal_error: {
    meaning: 'The server failed unexpectedly; the cause is logged under `requestId`.',
    action: 'Retry later; report the `requestId` to the operator if it persists.',
  },
  query_failed: {
    meaning: 'A database query failed or timed out.',
    action: 'Retry; narrow the query if it keeps happening.',
  },
  destination_unreadable: {
    meaning: "The destination's encrypted config cannot be decrypted (the server's `SECRET_KEY` changed).",
    action: 'Replace the destination with `PUT`, or delete it.',
    paths: /\/push|\/destinations/,
  },
  upstream_unavailable: {
    meaning: 'A live fetch from the registry failed (timeout, error or an open circuit breaker).',
    action: 'Retry later; stored companies are unaffected.',
    paths: /\/companies/,
  },
  crm_unavailable: {
    meaning:
      'A CRM destination (HubSpot, Attio) could not be used: it stayed down or rate-limited after retries, or refused the token. The message names the CRM and its reason.',
    action:
      'Retry later, or reconnect the destination (new token, or the HubSpot install again) if the token was refused.',
    paths: /\/push/,
  },
  integration_not_configured: {
    meaning:
      'The HubSpot OAuth install or webhook needs HUBSPOT_CLIENT_ID / HUBSPOT_CLIENT_SECRET (or HUBSPOT_APP_SECRET) on this server.',
    action: 'Ask the operator to set them, or connect with a private app access token instead.',
    paths: /\/integrations\//,
  },
  invalid_signature: {
    meaning: "A CRM webhook's signature is missing, does not match, or its timestamp is older than five minutes.",
    action: 'Nothing for API clients: only HubSpot and Attio call these routes, signed with the app or webhook secret.',
    paths: /\/integrations\//,
  },
  service_unavailable: {
    meaning: 'The database or Redis is unreachable, or the server is shutting down.',
    action: 'Retry after `Retry-After` seconds.',
  },
  notice_not_found: {
    meaning: 'No stored procurement notice has this id (Doffin id, TED publication number or eForms id).',
    action: 'Find the notice with `GET /api/procurement` and use its `noticeId`.',
    paths: /\/procurement\//,
  },
  evidence_not_found: {
    meaning: "No evidence pack of this key's project has this id (another project's packs are not shown).",
    action: 'List your packs with `GET /api/evidence` and use one of their ids.',
    paths: /\/evidence/,
  },
  evidence_pack_limit: {
    meaning: 'Free keys may create 10 evidence packs per UTC day; this one is spent.',
    action: 'Retry after `Retry-After` seconds (next midnight UTC), or ask for a higher tier.',
    paths: /\/evidence/,
  },
  watchlist_not_found: {
    meaning: 'No watchlist of this key has this name.',
    action: 'List watchlists with `GET /api/watchlists` and use one of their names.',
    paths: /\/watchlists\//,
  },
  watchlist_name_taken: {
    meaning: 'This key already has a watchlist with this name.',
    action: 'Choose another name, or change the existing watchlist with `PUT`.',
    paths: /\/watchlists/,
  },
  watchlist_full: {
    meaning:
      "Adding these companies would take your project's watchlists (all together) over your tier's number of companies, or the project already holds your tier's number of watchlists.",
    action: 'Remove companies first, add fewer, or ask for a higher tier.',
    paths: /\/watchlists\//,
  },
  events_expired: {
    meaning: 'The `after` seq is older than the event retention; those events are gone.',
    action: 'Resume from `resumeAfter` in the error body (re-read current records to fill the gap).',
    paths: /\/events/,
  },
  too_many_streams: {
    meaning: 'This key has as many event streams open as its tier allows.',
    action: 'Close a stream (one per consumer is enough), or wait and reconnect with `Last-Event-ID`.',
    paths: /\/events\/stream/,
  },
};

/** Every catalogue code with its status, message and documentation, in catalogue order. */
export function errorCatalogueDocs(): (ErrorDoc & { code: ErrorCode; status: number; message: string })[] {
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).map((code) => {
    const { status, message } = ERROR_CATALOGUE[code];
    const doc = ERROR_DOCS[code] ?? { meaning: message, action: 'See the `error` message of the response.' };
    return { code, status, message, ...doc };
  });
}

/** The link an error body carries to its code's entry on the errors page. */
export function errorDocsUrl(baseUrl: string, code: string): string {
  return `${baseUrl}/errors#${code}`;
}
