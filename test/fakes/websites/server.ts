// Fake websites for the web-profile crawler. Each site listens on its own loopback address
// (127.0.0.x) on a free port; the crawler reaches it through the real safeFetch with
// - a table resolver mapping the site's hostnames to its address, and
// - a dial seam that maps port 80 of that address to the site's real port (443 is refused,
//   as on a site without HTTPS), and
// - allowedAddresses listing exactly the sites' addresses, never a sink's.
// A sink is a site that must never be reached (a private address a page redirects to): it is
// in the dial map, so only safeFetch's address policy can keep a request from arriving.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildConnector } from 'undici';
import type { Resolver } from '../../../src/net/index.ts';

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Answer after this many ms (to make concurrent requests overlap). */
  delayMs?: number;
}

export interface SiteDef {
  name: string;
  address: string;
  /** Hostnames the resolver maps to this address. */
  hosts: string[];
  /** path -> answer, or a function of (host, path). Unknown paths answer 404. */
  routes: Record<string, Route> | ((host: string, path: string) => Route | undefined);
  /** A sink: reachable by dial, but never allow-listed. */
  sink?: boolean;
}

export interface FakeSite {
  name: string;
  address: string;
  port: number;
  connections: number;
  requests: { host: string; path: string; userAgent: string }[];
  /** Requests being answered right now, and the most at once. */
  inFlight: number;
  maxInFlight: number;
}

export interface FakeWebsites {
  site(name: string): FakeSite;
  resolver: Resolver;
  dial: ReturnType<typeof buildConnector>;
  allowedAddresses: string[];
  resetCounters(): void;
  close(): Promise<void>;
}

const FIXTURES = fileURLToPath(new URL('../../fixtures/websites/', import.meta.url));
const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));

/** A recorded page from test/fixtures/websites with literal replacements applied. */
export function fixturePage(file: string, replace: [string, string][] = []): string {
  return replace.reduce((html, [from, to]) => html.split(from).join(to), readFileSync(FIXTURES + file, 'utf8'));
}

/** A page written for these fakes (test/fakes/websites/pages). */
export function fakePage(file: string, replace: [string, string][] = []): string {
  return replace.reduce((html, [from, to]) => html.split(from).join(to), readFileSync(PAGES + file, 'utf8'));
}

export const html = (body: string, status = 200): Route => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body,
});
export const redirect = (location: string, status = 302): Route => ({ status, headers: { location } });

export async function startFakeWebsites(defs: SiteDef[]): Promise<FakeWebsites> {
  const sites = new Map<string, FakeSite>();
  const servers: { server: http.Server; sockets: Set<Socket> }[] = [];
  const byAddress = new Map<string, FakeSite>();
  const table = new Map<string, string>();

  for (const def of defs) {
    const state: FakeSite = {
      name: def.name,
      address: def.address,
      port: 0,
      connections: 0,
      requests: [],
      inFlight: 0,
      maxInFlight: 0,
    };
    const sockets = new Set<Socket>();
    const server = http.createServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      const path = (req.url ?? '/').split('?')[0];
      state.requests.push({ host, path, userAgent: String(req.headers['user-agent'] ?? '') });
      const route = typeof def.routes === 'function' ? def.routes(host, path) : def.routes[path];
      const r = route ?? { status: 404, body: 'not found' };
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      res.on('close', () => state.inFlight--);
      const answer = () => {
        res.writeHead(r.status ?? 200, r.headers ?? {});
        res.end(r.body ?? '');
      };
      if (r.delayMs) setTimeout(answer, r.delayMs);
      else answer();
    });
    server.on('connection', (s) => {
      state.connections++;
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, def.address, () => resolve());
    });
    state.port = (server.address() as AddressInfo).port;
    servers.push({ server, sockets });
    sites.set(def.name, state);
    byAddress.set(def.address, state);
    for (const h of def.hosts) table.set(h, def.address);
  }

  const real = buildConnector({ timeout: 2_000 });
  const dial: ReturnType<typeof buildConnector> = (opts, cb) => {
    const site = byAddress.get(opts.hostname);
    const port = String(opts.port || (opts.protocol === 'https:' ? 443 : 80));
    if (!site || port !== '80' || opts.protocol !== 'http:') {
      cb(Object.assign(new Error(`connect ECONNREFUSED ${opts.hostname}:${port}`), { code: 'ECONNREFUSED' }), null);
      return;
    }
    real({ ...opts, port: String(site.port) }, cb);
  };

  return {
    site(name) {
      const s = sites.get(name);
      if (!s) throw new Error(`no fake site ${name}`);
      return s;
    },
    resolver: {
      async lookup(hostname) {
        const address = table.get(hostname);
        if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        return [{ address, family: 4 as const }];
      },
    },
    dial,
    allowedAddresses: defs.filter((d) => !d.sink).map((d) => d.address),
    resetCounters() {
      for (const s of sites.values()) {
        s.connections = 0;
        s.requests = [];
        s.maxInFlight = 0;
      }
    },
    async close() {
      await Promise.all(
        servers.map(
          ({ server, sockets }) =>
            new Promise<void>((resolve) => {
              for (const s of sockets) s.destroy();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
