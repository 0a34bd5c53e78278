// Which IP addresses an outbound request may connect to. Addresses are parsed (ipaddr.js),
// never matched as strings: WHATWG URL rewrites [::ffff:127.0.0.1] to [::ffff:7f00:1], and
// 2130706433 / 0x7f000001 / 127.1 / 0177.0.0.1 all become 127.0.0.1.
import ipaddr from 'ipaddr.js';

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

// Global unicast IPv6 lives in 2000::/3. Requiring it (on top of range()==='unicast') also
// refuses the deprecated IPv4-compatible ::a.b.c.d form, which ipaddr.js calls 'unicast'
// (a known bypass: ::127.0.0.1, ::169.254.169.254), and 100::/64, 64:ff9b:1::/48 etc.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Ranges never dialled, even with allowPrivate: they are not a host one can mean. */
const NEVER = new Set(['unspecified', 'multicast', 'broadcast']);

function parse(ip: string): Addr | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // isValidFourPartDecimal/isValid on IPv6: refuse the legacy short forms ("127.1") here; they
  // never reach us from a URL (URL canonicalises them) but may from a resolver or a caller.
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (ipaddr.IPv6.isValid(bare)) {
    const v6 = ipaddr.IPv6.parse(bare);
    return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
  }
  return null;
}

function isPublic(addr: Addr): boolean {
  if (addr.range() !== 'unicast') return false;
  if (addr.kind() === 'ipv6') return (addr as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
  return true;
}

/** True only for a routable public unicast address (IPv4-mapped IPv6 is judged as IPv4). */
export function isPublicAddress(ip: string): boolean {
  const addr = parse(ip);
  return addr !== null && isPublic(addr);
}

export interface AddressPolicy {
  /** Also allow private, loopback, link-local … (tests, on-prem receivers). */
  allowPrivate: boolean;
  /** Exact addresses or CIDRs allowed regardless of range (an on-prem receiver; tests). */
  allowedAddresses: readonly [Addr, number][];
}

/** Parses `allowedAddresses` entries ("10.1.2.3", "10.1.0.0/16", "fd00::/8"); throws on a bad entry. */
export function parseAllowedAddresses(entries: readonly string[] | undefined): [Addr, number][] {
  return (entries ?? []).map((entry) => {
    if (entry.includes('/')) {
      const [a, bits] = ipaddr.parseCIDR(entry);
      const addr =
        a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a;
      return [addr, addr.kind() === a.kind() ? bits : bits - 96] as [Addr, number];
    }
    const addr = parse(entry);
    if (!addr) throw new Error(`allowedAddresses: "${entry}" is not an IP address or CIDR`);
    return [addr, addr.kind() === 'ipv4' ? 32 : 128] as [Addr, number];
  });
}

export function isAllowedAddress(ip: string, policy: AddressPolicy): boolean {
  const addr = parse(ip);
  if (!addr) return false;
  for (const [net, bits] of policy.allowedAddresses) {
    if (net.kind() === addr.kind() && addr.match(net as never, bits)) return true;
  }
  if (isPublic(addr)) return true;
  return policy.allowPrivate && !NEVER.has(addr.range());
}
