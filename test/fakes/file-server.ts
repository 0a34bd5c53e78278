// A tiny static file server on 127.0.0.1 for sync jobs that download one file (--url or a
// configured default URL): serves bodies by path, 404 otherwise, and logs the paths asked for.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeFileServer {
  url: string;
  /** Body per path, e.g. `/smilefjes-tilsyn.csv`. */
  files: Map<string, Buffer | string>;
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeFileServer(): Promise<FakeFileServer> {
  const files = new Map<string, Buffer | string>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    requests.push(path);
    const body = files.get(path);
    if (body === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    files,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
