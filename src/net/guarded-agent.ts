// An undici Agent whose every connection goes to an address vetted beforehand. Two holes
// this closes (STACK.md §7):
// - Node's net.connect skips DNS for IP literals, so a lookup hook never sees them: the
//   connector itself checks literals.
// - DNS rebinding: the connector never resolves. It dials only the addresses vetUrl pinned
//   for that hostname, so a second DNS answer can't change where we connect.
import net from 'node:net';
import { Agent, buildConnector } from 'undici';
import { type AddressPolicy, isAllowedAddress } from './address-policy.ts';
import { BlockedDestinationError } from './errors.ts';

export type Connector = buildConnector.connector;

/** At most this many vetted addresses are tried in turn for one connection. */
const MAX_ADDRESS_ATTEMPTS = 3;

interface GuardedConnectorOptions {
  policy: AddressPolicy;
  /** hostname (lower-case, no brackets) -> vetted addresses; filled by the caller per hop. */
  pins: ReadonlyMap<string, readonly string[]>;
  /** Records which address each hostname's connection went to. */
  onConnected?: (hostname: string, address: string) => void;
  connectTimeoutMs: number;
  /** The raw dialler (default: undici's buildConnector). A seam for tests only. */
  dial?: Connector;
}

export function createGuardedConnector(o: GuardedConnectorOptions): Connector {
  const dial = o.dial ?? buildConnector({ timeout: o.connectTimeoutMs });
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    let candidates: readonly string[];
    if (net.isIP(host)) {
      candidates = [host];
    } else {
      const pinned = o.pins.get(host);
      if (!pinned || pinned.length === 0) {
        callback(new BlockedDestinationError('dns', `no vetted address for ${host}`), null);
        return;
      }
      candidates = pinned;
    }
    // Defence in depth: re-check every address here, whatever the caller vetted.
    const allowed = candidates.filter((a) => isAllowedAddress(a, o.policy));
    if (allowed.length !== candidates.length) {
      callback(new BlockedDestinationError('private-address', `${host} is not a public address`), null);
      return;
    }
    const attempts = allowed.slice(0, MAX_ADDRESS_ATTEMPTS);
    const tryAt = (i: number): void => {
      const address = attempts[i];
      // SNI and certificate checks must use the name, not the dialled address.
      const servername = net.isIP(host) ? undefined : host;
      dial({ ...opts, hostname: address, servername }, (err, socket) => {
        if (err) {
          if (i + 1 < attempts.length) return tryAt(i + 1);
          return callback(err, null);
        }
        o.onConnected?.(host, address);
        callback(null, socket!);
      });
    };
    tryAt(0);
  };
}

export function createGuardedAgent(o: GuardedConnectorOptions & { timeoutMs: number }): Agent {
  return new Agent({
    connect: createGuardedConnector(o),
    headersTimeout: o.timeoutMs,
    bodyTimeout: o.timeoutMs,
    // One request at a time per call; nothing to gain from pipelining or h2.
    pipelining: 1,
    allowH2: false,
  });
}
