// Which network a client address counts for in the registration limit. An IPv4 client usually
// has one public address, while an IPv6 client is handed a whole /64 (and can pick a new address
// in it for every request), so IPv6 clients are counted per /64 and IPv4 clients per address.
// IPv4-mapped IPv6 addresses (::ffff:a.b.c.d, how a dual-stack socket reports IPv4) count as IPv4.
import ipaddr from 'ipaddr.js';

export function signupNetworkOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
