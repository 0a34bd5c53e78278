// Vetting one destination URL: scheme, port, and every address it resolves to. Used for each
// hop of safeFetch and, on its own, when a destination is saved (checkDestination).
import net from 'node:net';
import { type AddressPolicy, isAllowedAddress, parseAllowedAddresses } from './address-policy.ts';
import { BlockedDestinationError, FetchTimeoutError, SafeFetchError } from './errors.ts';
import { type Resolver, systemResolver } from './resolver.ts';
import type { BlockReason } from './errors.ts';

export type Scheme = 'http' | 'https';

export interface DestinationOptions {
  resolver?: Resolver;
  /** Allow private/loopback/link-local addresses (ALLOW_PRIVATE_DESTINATIONS; tests, on-prem). */
  allowPrivate?: boolean;
  /** Exact addresses or CIDRs allowed even when private (a known on-prem receiver; tests). */
  allowedAddresses?: string[];
  /** Default both. */
  allowedSchemes?: Scheme[];
  /** Default [80, 443]; 'any' by default when allowPrivate is on. */
  allowedPorts?: number[] | 'any';
}

interface VettedHop {
  url: URL;
  /** Hostname without IPv6 brackets, lower-case. */
  hostname: string;
  port: number;
  /** The vetted addresses; the connection must go to one of these and nowhere else. */
  addresses: string[];
}

interface ResolvedPolicy {
  resolver: Resolver;
  address: AddressPolicy;
  schemes: readonly Scheme[];
  ports: readonly number[] | 'any';
}

export function resolvePolicy(opts: DestinationOptions): ResolvedPolicy {
  const allowPrivate = opts.allowPrivate ?? false;
  return {
    resolver: opts.resolver ?? systemResolver,
    address: { allowPrivate, allowedAddresses: parseAllowedAddresses(opts.allowedAddresses) },
    schemes: opts.allowedSchemes ?? ['http', 'https'],
    ports: opts.allowedPorts ?? (allowPrivate ? 'any' : [80, 443]),
  };
}

function block(reason: BlockReason, message: string): never {
  throw new BlockedDestinationError(reason, message);
}

/** Rejects with a FetchTimeoutError when the signal fires first (dns.lookup takes no signal). */
function raceSignal<T>(p: Promise<T>, signal: AbortSignal | undefined, timeoutMs: number): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new FetchTimeoutError(timeoutMs));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new FetchTimeoutError(timeoutMs));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/** Throws BlockedDestinationError (or FetchTimeoutError when `signal` fires during DNS). */
export async function vetUrl(
  raw: string | URL,
  policy: ResolvedPolicy,
  signal?: AbortSignal,
  timeoutMs = 0,
): Promise<VettedHop> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return block('invalid-url', 'not a valid absolute URL');
  }
  const scheme = url.protocol.slice(0, -1);
  if (!policy.schemes.includes(scheme as Scheme)) return block('scheme', `scheme "${scheme}" is not allowed`);
  // fetch refuses credentials in URLs anyway; say why instead of failing later.
  if (url.username || url.password)
    return block('invalid-url', 'credentials in the URL are not supported; send an Authorization header');
  const port = url.port ? Number(url.port) : scheme === 'https' ? 443 : 80;
  if (policy.ports !== 'any' && !policy.ports.includes(port)) return block('port', `port ${port} is not allowed`);

  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!hostname) return block('invalid-url', 'no host');
  if (net.isIP(hostname)) {
    if (!isAllowedAddress(hostname, policy.address))
      return block('private-address', `${hostname} is not a public address`);
    return { url, hostname, port, addresses: [hostname] };
  }

  let answers;
  try {
    answers = await raceSignal(policy.resolver.lookup(hostname), signal, timeoutMs);
  } catch (err) {
    if (err instanceof SafeFetchError) throw err;
    return block('dns', `${hostname} did not resolve`);
  }
  if (answers.length === 0) return block('dns', `${hostname} did not resolve`);
  // Refuse the whole name when any answer is private: picking the public one would let a
  // name that mixes answers probe whether the private one exists.
  for (const a of answers) {
    if (!isAllowedAddress(a.address, policy.address)) {
      return block('private-address', `${hostname} resolves to a non-public address`);
    }
  }
  return { url, hostname, port, addresses: answers.map((a) => a.address) };
}

export type DestinationCheck =
  { ok: true; addresses: string[] } | { ok: false; reason: BlockReason | 'timeout'; message: string };

/** The same vetting safeFetch does per hop, for "save" time; never connects. */
export async function checkDestination(
  url: string,
  opts: DestinationOptions & { timeoutMs?: number } = {},
): Promise<DestinationCheck> {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  try {
    const hop = await vetUrl(url, resolvePolicy(opts), ac.signal, timeoutMs);
    return { ok: true, addresses: hop.addresses };
  } catch (err) {
    if (err instanceof BlockedDestinationError) return { ok: false, reason: err.reason, message: err.message };
    if (err instanceof FetchTimeoutError) return { ok: false, reason: 'timeout', message: err.message };
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
