// A loopback proxy in front of the test server for CLI runs: it forwards every request, hands
// each POST's path and body to `record`, and never answers the `holdAt`-th POST to `holdPath`,
// so a test can kill the CLI at a known point (mid-request) and check what a --resume repeats.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const PASSED_HEADERS = ['content-type', 'retry-after', 'x-request-id'];

export class HoldingProxy {
  /** POSTs to `holdPath` seen so far, the held one included. */
  calls = 0;
  holdAt: number | undefined;
  held: ServerResponse[] = [];
  private server: Server;

  constructor(
    private readonly target: string,
    private readonly holdPath: string,
  ) {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString();
      if (req.method === 'POST') {
        if (req.url === this.holdPath && ++this.calls === this.holdAt) return void this.held.push(res);
        this.record(req.url ?? '', body);
      }
      const upstream = await fetch(this.target + req.url, {
        method: req.method,
        headers: {
          authorization: req.headers.authorization ?? '',
          'content-type': req.headers['content-type'] ?? 'application/json',
        },
        body: req.method === 'GET' ? undefined : body,
      });
      const headers: Record<string, string> = {};
      for (const h of PASSED_HEADERS) if (upstream.headers.get(h)) headers[h] = upstream.headers.get(h)!;
      res.writeHead(upstream.status, headers).end(await upstream.text());
    });
  }

  /** Called with each forwarded POST; subclasses keep what their test checks. */
  protected record(_path: string, _body: string): void {}

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    for (const r of this.held) r.destroy();
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
