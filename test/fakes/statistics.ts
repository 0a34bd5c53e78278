// A local fake of the four statistics bureaus' APIs on 127.0.0.1: SSB (`/ssb`), SCB (`/scb`),
// Statistics Finland (`/statfi`) and Statistics Denmark (`/dst`), each answering the paths its
// table definitions ask for (PxWeb POSTs, StatBank GETs) with the JSON-stat fixtures under
// test/fixtures/statistics/. Switches per bureau: answer a status instead, or a body instead;
// per table: a 500, a body instead, or 429s with a Retry-After (the 429 and its header as SSB's
// and StatFin's APIs answer a caller above their rate, statistics-tables.md §1.4).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUREAUS, type StatCountry, type TableDef } from '../../src/sources/statistics/index.ts';

export const PREFIX: Record<StatCountry, string> = { NO: '/ssb', SE: '/scb', FI: '/statfi', DK: '/dst' };

/** The fixture file of a table: SCB's by its PxWeb table name (last path segment), the others by table id. */
export function fixtureName(country: StatCountry, def: TableDef): string {
  const name = country === 'SE' ? def.path.split('/').at(-1)! : def.table;
  return `${country.toLowerCase()}/${name}.json`;
}

export function readFixture(country: StatCountry, def: TableDef): unknown {
  return JSON.parse(
    readFileSync(new URL(`../fixtures/statistics/${fixtureName(country, def)}`, import.meta.url), 'utf8'),
  );
}

/** A table's metadata (PxWeb GET of the table URL), as `meta/<country>-<table>.json` holds it. */
export function readMetaFixture(country: StatCountry, def: TableDef): unknown {
  const name = `meta/${country.toLowerCase()}-${def.table}.json`;
  return JSON.parse(readFileSync(new URL(`../fixtures/statistics/${name}`, import.meta.url), 'utf8'));
}

export interface FakeStatistics {
  /** Base URL per country (the *_BASE_URL a server is given). */
  baseUrls: Record<StatCountry, string>;
  env: Record<string, string>;
  requests: { method: string; path: string; body: string }[];
  /** Answer every request of a bureau with this status. */
  failStatus: Partial<Record<StatCountry, number>>;
  /** Answer the requests of these table ids with 500 (one bureau's table withdrawn or renamed). */
  failTables: Set<string>;
  /** Answer every request of a bureau with this body (200). */
  overrideBody: Partial<Record<StatCountry, string>>;
  /** Answer the requests of a table id with this body (200). */
  overrideTables: Map<string, string>;
  /** Answer the next `times` requests of a table id with 429 and this Retry-After (Infinity: always). */
  rateLimited: Map<string, { times: number; retryAfter: string }>;
  /** Answer the metadata GET of a table id with this body (a bureau renaming a variable between runs). */
  overrideMeta: Map<string, string>;
  close(): Promise<void>;
}

export async function startFakeStatistics(): Promise<FakeStatistics> {
  const routes = new Map<string, { country: StatCountry; table: string; body: string; meta?: string }>();
  for (const country of Object.keys(BUREAUS) as StatCountry[])
    for (const def of BUREAUS[country].tables) {
      const pathname = new URL(def.path, 'http://fake/').pathname;
      routes.set(`${PREFIX[country]}${pathname}`, {
        country,
        table: def.table,
        body: JSON.stringify(readFixture(country, def)),
        // A definition that reads its metadata first is answered it on a GET of the table URL.
        meta: def.wanted ? JSON.stringify(readMetaFixture(country, def)) : undefined,
      });
    }
  const fake: Omit<FakeStatistics, 'baseUrls' | 'env' | 'close'> = {
    requests: [],
    failStatus: {},
    failTables: new Set(),
    overrideBody: {},
    overrideTables: new Map(),
    rateLimited: new Map(),
    overrideMeta: new Map(),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      fake.requests.push({ method: req.method ?? '', path, body: Buffer.concat(chunks).toString('utf8') });
      const route = routes.get(decodeURIComponent(path)) ?? routes.get(path);
      if (!route) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      const limited = fake.rateLimited.get(route.table);
      if (limited && limited.times > 0) {
        limited.times--;
        return res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': limited.retryAfter }).end('slow down');
      }
      const status = fake.failStatus[route.country] ?? (fake.failTables.has(route.table) ? 500 : undefined);
      if (status) return res.writeHead(status, { 'content-type': 'text/plain' }).end('error');
      if (req.method === 'GET' && route.meta !== undefined)
        return res
          .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
          .end(fake.overrideMeta.get(route.table) ?? route.meta);
      res
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        .end(fake.overrideTables.get(route.table) ?? fake.overrideBody[route.country] ?? route.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrls = {
    NO: `${url}${PREFIX.NO}`,
    SE: `${url}${PREFIX.SE}`,
    FI: `${url}${PREFIX.FI}`,
    DK: `${url}${PREFIX.DK}`,
  };
  return Object.assign(fake, {
    baseUrls,
    env: {
      SSB_BASE_URL: baseUrls.NO,
      SCB_BASE_URL: baseUrls.SE,
      STATFI_BASE_URL: baseUrls.FI,
      DST_BASE_URL: baseUrls.DK,
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
