// A local webhook receiver: records every request exactly as it arrived (method, path, raw
// headers, body) and answers as told: a status, a body, a redirect, or never (a hang).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Header names in the case and order they were sent. */
  rawHeaderNames: string[];
  body: string;
}

export type ReceiverMode =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'hang' };

export class WebhookReceiver {
  requests: ReceivedRequest[] = [];
  mode: ReceiverMode = { kind: 'status', status: 204 };
  private sockets = new Set<Socket>();
  private hanging = new Set<ServerResponse>();
  private server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawHeaderNames = req.rawHeaders.filter((_, i) => i % 2 === 0);
      this.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaderNames,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const m = this.mode;
      if (m.kind === 'hang') {
        this.hanging.add(res);
        return;
      }
      if (m.kind === 'redirect') {
        res.writeHead(m.status, { location: m.location }).end();
        return;
      }
      res.writeHead(m.status, { 'content-type': 'text/plain', ...(m.headers ?? {}) }).end(m.body ?? '');
    });
  });

  constructor(readonly host = '127.0.0.1') {
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  get hits(): number {
    return this.requests.length;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** http://host:port with IPv6 hosts bracketed. */
  get url(): string {
    return `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}`;
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, this.host, () => resolve());
    });
    return this;
  }

  reset(mode: ReceiverMode = { kind: 'status', status: 204 }) {
    this.requests = [];
    this.mode = mode;
    for (const r of this.hanging) r.destroy();
    this.hanging.clear();
  }

  async close(): Promise<void> {
    for (const r of this.hanging) r.destroy();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export async function startWebhookReceiver(host = '127.0.0.1', port = 0): Promise<WebhookReceiver> {
  return new WebhookReceiver(host).start(port);
}

/** A loopback port with nothing listening (bound, then released), for "connection refused". */
export async function closedPort(): Promise<number> {
  const r = await startWebhookReceiver();
  const port = r.port;
  await r.close();
  return port;
}
