// A local fake of data.brreg.no (Enhetsregisteret + Regnskapsregisteret) on 127.0.0.1,
// serving recorded real payloads and generated companies in the same shapes, with switches for
// latency, 5xx, timeouts, 410 and malformed bodies, and counters for what it was asked.
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { GeneratedCompany } from '../../../src/sources/brreg/generate.ts';
import type {
  BrregEnhet,
  BrregRegnskap,
  BrregRoller,
  BrregUnderenhet,
  BrregUpdate,
} from '../../../src/sources/brreg/types.ts';

export interface FakeBrregOptions {
  latencyMs?: number;
}

export interface RequestLog {
  path: string;
  query: string;
  at: number;
}

export class FakeBrreg {
  enheter = new Map<string, BrregEnhet>();
  underenheter = new Map<string, BrregUnderenhet>();
  roller = new Map<string, BrregRoller>();
  regnskap = new Map<string, BrregRegnskap[]>();
  /** Answer 410 Gone (removed for legal reasons). */
  gone = new Set<string>();
  updates: { enheter: BrregUpdate[]; underenheter: BrregUpdate[] } = { enheter: [], underenheter: [] };
  /** Org numbers whose every request answers 503. */
  failFor = new Set<string>();
  /** Org numbers whose requests never answer (the client must time out). */
  hangFor = new Set<string>();
  /** Org numbers whose responses are cut, malformed JSON. */
  malformedFor = new Set<string>();
  /** Org numbers whose connections are reset (destroyed) without an answer. */
  resetFor = new Set<string>();
  /** Org numbers answered with a 200 JSON body of this many bytes (streamed). */
  giganticFor = new Set<string>();
  giganticBytes = 30 * 1024 * 1024;
  /** Dump files (gzipped JSON, as brreg serves them) that lastned streams instead of the maps. */
  dumpFiles: Partial<Record<'enheter' | 'underenheter', string>> = {};
  /** Every request answers this status (when set). */
  forceStatus: number | undefined;
  latencyMs: number;
  requests: RequestLog[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private server = createServer((req, res) => void this.handle(req, res));
  private hanging = new Set<ServerResponse>();

  constructor(opts: FakeBrregOptions = {}) {
    this.latencyMs = opts.latencyMs ?? 0;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    for (const r of this.hanging) r.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  add(c: GeneratedCompany): this {
    this.enheter.set(c.enhet.organisasjonsnummer, c.enhet);
    if (c.roller.rollegrupper?.length) this.roller.set(c.enhet.organisasjonsnummer, c.roller);
    if (c.regnskap.length) this.regnskap.set(c.enhet.organisasjonsnummer, c.regnskap);
    for (const u of c.underenheter) this.underenheter.set(u.organisasjonsnummer, u);
    return this;
  }

  resetCounters() {
    this.requests = [];
    this.maxInFlight = 0;
  }

  /** Requests that concern one organisation number (by path or list filter). */
  requestsFor(orgnr: string): RequestLog[] {
    return this.requests.filter((r) => r.path.includes(orgnr) || r.query.includes(orgnr));
  }

  private json(res: ServerResponse, status: number, body: unknown, contentType = 'application/json') {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body === undefined ? '' : JSON.stringify(body));
  }

  private page<T>(key: string, items: T[], page: number, size: number) {
    const slice = items.slice(page * size, page * size + size);
    const totalPages = Math.max(1, Math.ceil(items.length / size));
    return {
      ...(slice.length ? { _embedded: { [key]: slice } } : {}),
      _links: { self: { href: `${this.url}/x` } },
      page: { size, totalElements: items.length, totalPages, number: page },
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ path: url.pathname, query: url.search, at: Date.now() });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.on('close', () => this.inFlight--);
    if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
    const concerned = [
      ...url.pathname.split('/'),
      ...(url.searchParams.get('organisasjonsnummer') ?? '').split(','),
      url.searchParams.get('overordnetEnhet') ?? '',
    ];
    if (concerned.some((n) => this.hangFor.has(n))) {
      this.hanging.add(res);
      return; // never answer
    }
    if (this.forceStatus || concerned.some((n) => this.failFor.has(n))) {
      return this.json(res, this.forceStatus ?? 503, {
        timestamp: new Date().toISOString(),
        status: 503,
        error: 'Service Unavailable',
        message: 'fake outage',
        path: url.pathname,
      });
    }
    if (concerned.some((n) => this.resetFor.has(n))) return req.socket.destroy();
    if (concerned.some((n) => this.giganticFor.has(n))) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      res.write('{"organisasjonsnummer":"' + url.pathname.slice(-9) + '","navn":"');
      for (let sent = 0; sent < this.giganticBytes && !res.destroyed; sent += chunk.length) {
        if (!res.write(chunk)) await new Promise((r) => res.once('drain', r).once('close', r));
      }
      return res.end('"}');
    }
    if (concerned.some((n) => this.malformedFor.has(n))) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"organisasjonsnummer": "9');
    }
    this.route(url, res);
  }

  private route(url: URL, res: ServerResponse) {
    const p = url.pathname;
    const q = url.searchParams;
    let m: RegExpExecArray | null;
    const page = Number(q.get('page') ?? 0);
    const size = Number(q.get('size') ?? 20);
    if ((m = /^\/enhetsregisteret\/api\/enheter\/(\d{9})\/roller$/.exec(p))) {
      const r = this.roller.get(m[1]);
      return r ? this.json(res, 200, r) : this.json(res, 404, undefined);
    }
    if ((m = /^\/enhetsregisteret\/api\/(enheter|underenheter)\/(\d{9})$/.exec(p))) {
      if (this.gone.has(m[2])) return this.json(res, 410, { organisasjonsnummer: m[2], slettedato: '2024-01-01' });
      const e = (m[1] === 'enheter' ? this.enheter : this.underenheter).get(m[2]);
      return e ? this.json(res, 200, e) : this.json(res, 404, undefined);
    }
    if (p === '/enhetsregisteret/api/enheter' || p === '/enhetsregisteret/api/underenheter') {
      const sub = p.endsWith('underenheter');
      const source = [...(sub ? this.underenheter : this.enheter).values()].filter(
        (e) => !e.slettedato && !this.gone.has(e.organisasjonsnummer),
      );
      // A set: the updates benchmark searches 1,000 numbers at a time in a 100k register.
      const numbers = q.has('organisasjonsnummer') ? new Set(q.get('organisasjonsnummer')!.split(',')) : null;
      const parent = q.get('overordnetEnhet');
      const items = source.filter(
        (e) => (!numbers || numbers.has(e.organisasjonsnummer)) && (!parent || e.overordnetEnhet === parent),
      );
      return this.json(res, 200, this.page(sub ? 'underenheter' : 'enheter', items, page, size));
    }
    if ((m = /^\/enhetsregisteret\/api\/oppdateringer\/(enheter|underenheter)$/.exec(p))) {
      const kind = m[1] as 'enheter' | 'underenheter';
      const from = Number(q.get('oppdateringsid') ?? 1);
      const since = q.get('dato');
      const items = this.updates[kind].filter((u) => u.oppdateringsid >= from && (!since || (u.dato ?? '') >= since));
      return this.json(
        res,
        200,
        this.page(kind === 'enheter' ? 'oppdaterteEnheter' : 'oppdaterteUnderenheter', items, page, size),
      );
    }
    if ((m = /^\/enhetsregisteret\/api\/(enheter|underenheter)\/lastned$/.exec(p))) {
      const file = this.dumpFiles[m[1] as 'enheter' | 'underenheter'];
      if (file) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return createReadStream(file).pipe(res);
      }
      // The dumps leave out deleted units.
      const items = [...(m[1] === 'enheter' ? this.enheter : this.underenheter).values()].filter((e) => !e.slettedato);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(gzipSync(JSON.stringify(items)));
    }
    if ((m = /^\/regnskapsregisteret\/regnskap\/(\d{9})$/.exec(p))) {
      const r = this.regnskap.get(m[1]);
      return r ? this.json(res, 200, r) : this.json(res, 404, undefined);
    }
    this.json(res, 404, { status: 404, feilmelding: 'not found' });
  }
}

export async function startFakeBrreg(opts: FakeBrregOptions = {}): Promise<FakeBrreg> {
  return new FakeBrreg(opts).start();
}
