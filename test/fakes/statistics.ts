// A local fake of the four statistics bureaus' APIs on 127.0.0.1: SSB (`/ssb`), SCB (`/scb`),
// Statistics Finland (`/statfi`) and Statistics Denmark (`/dst`), in their current formats: each
// table's metadata (PxWeb: GET of the table URL; StatBank: GET `tableinfo/{id}`) from
// test/fixtures/statistics/meta/, and its data (PxWeb: POST of the table URL; StatBank: GET
// `data/{id}/JSONSTAT`) from the JSON-stat fixtures beside it. Switches per bureau: answer a
// status instead, or a body instead; per table: a 500, a body or metadata instead (a bureau
// renaming a variable between two runs), or 429s with a Retry-After (the 429 and its header as
// SSB's and StatFin's APIs answer a caller above their rate, statistics-tables.md §1.4).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUREAUS, type StatCountry, type TableDef } from '../../src/sources/statistics/index.ts';

export const PREFIX: Record<StatCountry, string> = { NO: '/ssb', SE: '/scb', FI: '/statfi', DK: '/dst' };

/** The data fixture of a table, by table id. */
export function fixtureName(country: StatCountry, def: TableDef): string {
  return `${country.toLowerCase()}/${def.table}.json`;
}

export function readFixture(country: StatCountry, def: TableDef): unknown {
  return JSON.parse(
    readFileSync(new URL(`../fixtures/statistics/${fixtureName(country, def)}`, import.meta.url), 'utf8'),
  );
}

const exists = (name: string) => {
  try {
    readFileSync(new URL(`../fixtures/statistics/${name}`, import.meta.url));
    return true;
  } catch {
    return false;
  }
};

/** A table's metadata (PxWeb GET of the table URL, StatBank tableinfo), as `meta/<country>-<table>.json` holds it. */
export function readMetaFixture(country: StatCountry, def: TableDef): unknown {
  const name = `meta/${country.toLowerCase()}-${def.table}.json`;
  return JSON.parse(readFileSync(new URL(`../fixtures/statistics/${name}`, import.meta.url), 'utf8'));
}

export interface FakeStatistics {
  /** Base URL per country (the *_BASE_URL a server is given). */
  baseUrls: Record<StatCountry, string>;
  env: Record<string, string>;
  /** Every request: method, path, query string (StatBank's selections) and body (PxWeb's query). */
  requests: { method: string; path: string; search: string; body: string }[];
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
  // PxWeb: one path (GET metadata, POST data). StatBank: tableinfo/{id} (metadata), data/{id}/JSONSTAT (data).
  const routes = new Map<string, { country: StatCountry; table: string; body?: string; meta?: string }>();
  for (const country of Object.keys(BUREAUS) as StatCountry[])
    for (const def of BUREAUS[country].tables) {
      const meta = JSON.stringify(readMetaFixture(country, def));
      // An unconfirmed table whose metadata does not fit is never asked for data: it has no data fixture.
      const body = exists(fixtureName(country, def)) ? JSON.stringify(readFixture(country, def)) : undefined;
      if (BUREAUS[country].api === 'statbank') {
        routes.set(`${PREFIX[country]}/tableinfo/${def.table}`, { country, table: def.table, meta });
        routes.set(`${PREFIX[country]}/data/${def.table}/JSONSTAT`, { country, table: def.table, body });
      } else
        routes.set(`${PREFIX[country]}${new URL(def.path, 'http://fake/').pathname}`, {
          country,
          table: def.table,
          body,
          meta,
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
      const { pathname: path, search } = new URL(req.url ?? '/', 'http://fake');
      fake.requests.push({ method: req.method ?? '', path, search, body: Buffer.concat(chunks).toString('utf8') });
      const route = routes.get(decodeURIComponent(path)) ?? routes.get(path);
      if (!route) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      const limited = fake.rateLimited.get(route.table);
      if (limited && limited.times > 0) {
        limited.times--;
        return res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': limited.retryAfter }).end('slow down');
      }
      const status = fake.failStatus[route.country] ?? (fake.failTables.has(route.table) ? 500 : undefined);
      if (status) return res.writeHead(status, { 'content-type': 'text/plain' }).end('error');
      const json = { 'content-type': 'application/json; charset=utf-8' };
      if (req.method === 'GET' && route.meta !== undefined)
        return res.writeHead(200, json).end(fake.overrideMeta.get(route.table) ?? route.meta);
      const body = fake.overrideTables.get(route.table) ?? fake.overrideBody[route.country] ?? route.body;
      if (body === undefined) return res.writeHead(404, { 'content-type': 'text/plain' }).end('no data fixture');
      res.writeHead(200, json).end(body);
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
