// DNS is a port: the client asks a Resolver, so tests (and the crawler's cache) can answer.
import { promises as dns } from 'node:dns';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface Resolver {
  /** Every address the name resolves to; rejects (or returns []) when it does not resolve. */
  lookup(hostname: string): Promise<ResolvedAddress[]>;
}

/** The operating system's resolver (getaddrinfo: /etc/hosts, then DNS). */
export const systemResolver: Resolver = {
  async lookup(hostname) {
    const all = await dns.lookup(hostname, { all: true, verbatim: true });
    return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
};
