// Loopback HTTP servers for the safe-fetch tests. Each counts its hits so a test can prove a
// blocked request never arrived.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  host: string;
  port: number;
  hits: number;
  /** Requests as seen by the server (method, url, headers, body). */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export async function startServer(
  host: string,
  handler: Handler = (_q, r) => r.end('sink'),
  port = 0,
): Promise<TestServer> {
  const sockets = new Set<import('node:net').Socket>();
  const state: TestServer = {
    host,
    port: 0,
    hits: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    state.hits++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  state.port = (server.address() as AddressInfo).port;
  return state;
}

/** A fake Resolver answering from a table; unknown names reject like NXDOMAIN. */
export function tableResolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  return {
    calls,
    async lookup(hostname: string) {
      calls.push(hostname);
      const answers = table[hostname];
      if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return answers.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
    },
  };
}
