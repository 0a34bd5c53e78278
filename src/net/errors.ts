// Typed failures of the outbound HTTP client. Each carries a fixed `kind` so callers (webhook
// push, crawler) can report the failure class without echoing anything the receiver sent.
// Messages name the host at most, never the path or query: webhook URLs often carry tokens.

export type SafeFetchErrorKind = 'blocked' | 'timeout' | 'network' | 'too-many-redirects' | 'invalid-request';

export type BlockReason =
  | 'invalid-url' // unparseable, or credentials in the URL
  | 'scheme' // not in allowedSchemes
  | 'port' // not in allowedPorts
  | 'private-address' // a literal or a resolved address outside the allowed ranges
  | 'dns'; // the name did not resolve (or resolved to nothing)

export abstract class SafeFetchError extends Error {
  abstract readonly kind: SafeFetchErrorKind;
}

export class BlockedDestinationError extends SafeFetchError {
  readonly kind = 'blocked' as const;
  constructor(
    readonly reason: BlockReason,
    message: string,
  ) {
    super(message);
    this.name = 'BlockedDestinationError';
  }
}

export class TooManyRedirectsError extends SafeFetchError {
  readonly kind = 'too-many-redirects' as const;
  constructor(readonly maxRedirects: number) {
    super(`more than ${maxRedirects} redirect(s)`);
    this.name = 'TooManyRedirectsError';
  }
}

export class FetchTimeoutError extends SafeFetchError {
  readonly kind = 'timeout' as const;
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'FetchTimeoutError';
  }
}

export class NetworkError extends SafeFetchError {
  readonly kind = 'network' as const;
  /** A system or undici code such as ECONNREFUSED or UND_ERR_SOCKET, when one is known. */
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** The request itself was malformed (bad header name or value, bad method). */
export class InvalidRequestError extends SafeFetchError {
  readonly kind = 'invalid-request' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRequestError';
  }
}
