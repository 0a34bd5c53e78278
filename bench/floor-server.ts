// The floor of issue 54: what the change feed and an uncached lookup cost when Node does nothing
// but pass PostgreSQL's bytes on. A bare node:http server (no framework, no auth, no cursor
// signing, no derived fields) with one statement per request whose result PostgreSQL writes as
// JSON text; Node copies that text into the response untouched. bench/floor.ts measures the
// product against it in the same run on the same store.
//   node --import tsx bench/floor-server.ts      (DATABASE_URL, PORT from the environment)
//   GET /feed?since=2000-01-01&limit=100&cursor=…   GET /companies/{orgNumber}?country=NO
import { createServer, type ServerResponse } from 'node:http';
import pg from 'pg';

// The product's pool size (src/store/engine/db.ts), so neither side has more backends to use.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

// The product's page size bounds (contract/pagination.ts LimitParam: default 20, 1–100).
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

// A feed row carries what the product's list row reads (LIST_ROW_RELATIONS: the latest two years
// of accounts and the roles), with the same ordering of each relation (store/company-reads.ts),
// beside the company row as stored.
const FEED_ROW = `json_build_object(
    'company', row_to_json(c),
    'financials', (SELECT json_agg(f) FROM (
      SELECT * FROM financials WHERE company_id = c.id
      ORDER BY period_to DESC, (accounts_type = 'SELSKAP') DESC, id LIMIT 2) f),
    'roles', (SELECT json_agg(r ORDER BY r.group_code, r.position, r.id) FROM roles r WHERE r.company_id = c.id))`;

/**
 * The product's keyset page (store/engine/keyset.ts with store/change-feed.ts's WHERE): ids and
 * keys first in (updated_at, id) order with a literal limit of page size + 1 (the extra row says
 * whether there is a next page), then the page's rows; here the whole page, cursor and hasMore
 * included, is one JSON text built by PostgreSQL. The cursor is the last row's position as text.
 */
function feedSql(limit: number, after: boolean): string {
  return `WITH page AS MATERIALIZED (
    SELECT c.id AS page_id, c.updated_at AS page_key FROM companies c
    WHERE c.updated_at >= $1::timestamptz${after ? ' AND (c.updated_at, c.id) > (CAST($2 AS timestamptz), $3::bigint)' : ''}
    ORDER BY c.updated_at ASC, c.id ASC
    LIMIT ${limit + 1}),
  shown AS (SELECT page_id, page_key FROM page ORDER BY page_key, page_id LIMIT ${limit}),
  more AS (SELECT count(*) > ${limit} AS has_more FROM page)
  SELECT json_build_object(
    'data', COALESCE((SELECT json_agg(${FEED_ROW} ORDER BY s.page_key, s.page_id)
                      FROM shown s JOIN companies c ON c.id = s.page_id), '[]'::json),
    'nextCursor', CASE WHEN (SELECT has_more FROM more) THEN
      (SELECT page_key::text || ',' || page_id FROM shown ORDER BY page_key DESC, page_id DESC LIMIT 1) END,
    'hasMore', (SELECT has_more FROM more))::text`;
}

/**
 * The row the product's lookup reads (store/company-reads.ts load() with the lookup's FULL
 * relations: all accounts, roles, sub-units, licences), as one JSON text.
 */
const LOOKUP_SQL = `SELECT json_build_object(
    'company', row_to_json(c),
    'financials', (SELECT json_agg(f) FROM (
      SELECT * FROM financials WHERE company_id = c.id
      ORDER BY period_to DESC, (accounts_type = 'SELSKAP') DESC, id) f),
    'roles', (SELECT json_agg(r ORDER BY r.group_code, r.position, r.id) FROM roles r WHERE r.company_id = c.id),
    'subUnits', (SELECT json_agg(s ORDER BY s.org_number) FROM sub_units s
                 WHERE s.parent_org_number = c.org_number AND s.country = c.country),
    'licenses', CASE WHEN c.country = 'NO' THEN (SELECT json_agg(l ORDER BY l.valid_from DESC, l.id)
                 FROM licenses l WHERE l.org_number = c.org_number) END)::text
  FROM companies c WHERE c.country = $1 AND c.org_number = $2`;

/** One named statement (planned once per connection, as the product's PREPARED ones); its one text cell. */
async function jsonText(name: string, text: string, values: unknown[]): Promise<string | undefined> {
  const r = await pool.query<[string]>({ name, text, values, rowMode: 'array' });
  return r.rows[0]?.[0];
}

function send(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function feed(q: URLSearchParams): Promise<[number, string]> {
  const since = q.get('since');
  const limit = Number(q.get('limit') ?? DEFAULT_LIMIT);
  if (!since || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return [400, '{"error":"bad query"}'];
  const cursor = q.get('cursor');
  // The cursor is `<updated_at as text>,<id>`; the timestamp text holds no comma.
  const cut = cursor ? cursor.lastIndexOf(',') : -1;
  if (cursor && cut < 1) return [400, '{"error":"bad cursor"}'];
  const values = cursor ? [since, cursor.slice(0, cut), cursor.slice(cut + 1)] : [since];
  const body = await jsonText(`floor_feed_${limit}_${cursor ? 'after' : 'first'}`, feedSql(limit, !!cursor), values);
  return [200, body!];
}

async function lookup(orgNumber: string, q: URLSearchParams): Promise<[number, string]> {
  const body = await jsonText('floor_lookup', LOOKUP_SQL, [q.get('country') ?? 'NO', orgNumber]);
  return body === undefined ? [404, '{"error":"not found"}'] : [200, body];
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://floor');
  const parts = url.pathname.split('/');
  const answer =
    url.pathname === '/health'
      ? Promise.resolve<[number, string]>([200, '{"ok":true}'])
      : url.pathname === '/feed'
        ? feed(url.searchParams)
        : parts.length === 3 && parts[1] === 'companies' && parts[2]
          ? lookup(decodeURIComponent(parts[2]), url.searchParams)
          : Promise.resolve<[number, string]>([404, '{"error":"no route"}']);
  answer.then(
    ([status, body]) => send(res, status, body),
    (err: Error) => send(res, 500, JSON.stringify({ error: err.message })),
  );
});
// Autocannon holds its connections open across the whole run, as the product sees them.
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
