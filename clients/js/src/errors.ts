// Typed errors. Every error the API sends has one body shape (`{ error, code, details?,
// requestId?, retryAfter?, upgradeUrl? }`); NcdApiError carries it with the HTTP status so
// callers can branch on `code` without parsing messages. The API key is never part of an error.

export interface NcdErrorDetail {
  path: string;
  message: string;
}

export class NcdApiError extends Error {
  override readonly name = 'NcdApiError';
  /** HTTP status, e.g. 400, 401, 429. */
  readonly status: number;
  /** Stable snake_case code from the server's catalogue, e.g. `validation_failed`, `invalid_api_key`. */
  readonly code: string;
  /** Per-field problems on validation errors (400). */
  readonly details: NcdErrorDetail[];
  readonly requestId: string | undefined;
  /** Seconds to wait, from the `Retry-After` header (429). */
  readonly retryAfter: number | undefined;
  /** Where to upgrade, on 402 `trial_expired`. */
  readonly upgradeUrl: string | undefined;
  readonly method: string;
  readonly path: string;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    method: string;
    path: string;
    details?: NcdErrorDetail[];
    requestId?: string;
    retryAfter?: number;
    upgradeUrl?: string;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.upgradeUrl = init.upgradeUrl;
    this.method = init.method;
    this.path = init.path;
  }
}

/** The server could not be reached, or the connection broke before a response arrived. */
export class NcdNetworkError extends Error {
  override readonly name = 'NcdNetworkError';
  constructor(
    message: string,
    readonly method: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The server ended an event stream for good with `event: end` (e.g. `credential_invalid` once the
 * key was rotated or deactivated): reconnecting with the same key would not help.
 */
export class NcdStreamEndedError extends Error {
  override readonly name = 'NcdStreamEndedError';
  constructor(
    /** The server's reason code, e.g. `credential_invalid`. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** Builds an NcdApiError from a response body that may or may not be the API's error shape. */
export function apiErrorFrom(
  status: number,
  body: unknown,
  init: { method: string; path: string; requestId?: string; retryAfter?: number },
): NcdApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const details = Array.isArray(b.details)
    ? b.details.filter(
        (d): d is NcdErrorDetail =>
          typeof d === 'object' && d !== null && typeof d.path === 'string' && typeof d.message === 'string',
      )
    : undefined;
  return new NcdApiError({
    status,
    // A proxy in front of the API may answer with its own (non-JSON) body.
    code: typeof b.code === 'string' ? b.code : `http_${status}`,
    message: typeof b.error === 'string' ? b.error : `HTTP ${status} from ${init.method} ${init.path}`,
    details,
    requestId: typeof b.requestId === 'string' ? b.requestId : init.requestId,
    retryAfter: init.retryAfter ?? (typeof b.retryAfter === 'number' ? b.retryAfter : undefined),
    upgradeUrl: typeof b.upgradeUrl === 'string' ? b.upgradeUrl : undefined,
    method: init.method,
    path: init.path,
  });
}
