// Public surface of the SSRF-safe outbound HTTP client.
export { safeFetch, type SafeFetchOptions, type SafeResponse } from './safe-fetch.ts';
export { checkDestination, type DestinationCheck, type DestinationOptions, type Scheme } from './destination.ts';
export { isPublicAddress } from './address-policy.ts';
export { systemResolver, type Resolver, type ResolvedAddress } from './resolver.ts';
export {
  BlockedDestinationError,
  FetchTimeoutError,
  InvalidRequestError,
  NetworkError,
  SafeFetchError,
  TooManyRedirectsError,
  type BlockReason,
  type SafeFetchErrorKind,
} from './errors.ts';
