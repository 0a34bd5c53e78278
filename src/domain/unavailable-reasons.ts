// Why a company of an enrich call could not be answered (`unavailableReasons`), so a client can
// tell a registry outage (retry later) from a spent daily budget (retry tomorrow, or upgrade).
export const UNAVAILABLE_REASONS = [
  /** The registry failed, timed out or answered something unreadable. */
  'upstream_error',
  /** The registry failed repeatedly; requests are paused until a probe succeeds. */
  'upstream_circuit_open',
  /** The server's shared request rate to the registry is spent for now. */
  'upstream_rate_limited',
  /** The key's daily budget of live fetches is spent (LIVE_FETCH_BUDGET_<TIER>). */
  'live_fetch_budget',
] as const;

export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** The reason for an upstream failure of a given kind. */
export function reasonOfFailure(kind: string | undefined): UnavailableReason {
  if (kind === 'circuit-open') return 'upstream_circuit_open';
  if (kind === 'throttled') return 'upstream_rate_limited';
  return 'upstream_error';
}
