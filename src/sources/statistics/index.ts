// Fetches a bureau's tables and turns each JSON-stat answer into figures: one value per
// municipality (or NACE division) for the latest period the table holds for it.
import { request } from 'undici';
import { UpstreamError } from '../upstream-http.ts';
import { JsonStatError, readJsonStat } from './json-stat.ts';
import { MetadataError, planQuery, pxQueries, readPxMetadata } from './metadata.ts';
import {
  CELL_LIMITS,
  createPacer,
  MAX_429_RETRIES,
  MAX_RETRY_AFTER_MS,
  RATE_LIMITS,
  retryAfterMs,
  wait,
  type Pacer,
} from './pacing.ts';
import type { Bureau, TableDef } from './tables.ts';

export { JsonStatError, readJsonStat } from './json-stat.ts';
export * from './tables.ts';
export * from './codes.ts';
export * from './metadata.ts';
export * from './pacing.ts';

interface StatFigure {
  scope: 'municipality' | 'industry';
  measure: string;
  /** Municipality code (as our lists write it) or NACE division. */
  key: string;
  value: number;
  year: number;
  table: string;
  unit: string;
}

interface StatTableInfo {
  scope: 'municipality' | 'industry';
  measure: string;
  table: string;
  title: string;
  unit: string;
  /** Latest reference year among the table's figures. */
  year: number;
  url: string;
  /** The bureau's own `updated` stamp of the table, when it gives one. */
  updated: string | null;
}

interface BureauData {
  figures: StatFigure[];
  tables: StatTableInfo[];
  /** Tables that could not be fetched or read this run, with the reason; their stored figures stay. */
  failedTables: { table: string; scope: StatTableInfo['scope']; measure: string; reason: string }[];
}

/** Reference year of a period code: "2025", "2025K3" (quarter), "2024M12" (month). */
function yearOf(period: string): number | null {
  const m = /^(\d{4})/.exec(period);
  return m ? Number(m[1]) : null;
}

/** The figures of one table's JSON-stat answer: per key, the value of its latest period. */
export function extractFigures(
  bureau: Bureau,
  def: TableDef,
  doc: unknown,
): { figures: StatFigure[]; updated: string | null } {
  const t = readJsonStat(doc);
  for (const dim of [def.keyDim, def.timeDim])
    if (!t.ids.includes(dim)) throw new JsonStatError(`${def.table}: dimension ${dim} is missing`);
  for (const id of t.ids)
    if (id !== def.keyDim && id !== def.timeDim && t.categories[id].length !== 1)
      throw new JsonStatError(`${def.table}: dimension ${id} has ${t.categories[id].length} categories, 1 expected`);
  // Periods of one table share a format ("2025", "2025K3", "2024M12"), so they sort as text.
  const latest = new Map<string, { value: number; year: number; period: string }>();
  for (const cell of t.cells()) {
    if (cell.value === null) continue;
    const code = cell.codes[def.keyDim];
    const key = def.scope === 'municipality' ? bureau.municipality(code) : bureau.division(code);
    const period = cell.codes[def.timeDim];
    const year = yearOf(period);
    if (key === null || year === null) continue;
    const seen = latest.get(key);
    if (!seen || period > seen.period) latest.set(key, { value: cell.value, year, period });
  }
  if (latest.size === 0) throw new JsonStatError(`${def.table}: no ${def.scope} figures in the answer`);
  const figures = [...latest].map(([key, v]) => ({
    scope: def.scope,
    measure: def.measure,
    key,
    value: v.value,
    year: v.year,
    table: def.table,
    unit: def.unit,
  }));
  return { figures, updated: t.updated };
}

const MAX_BYTES = 20 * 1024 * 1024;

/** One table's answer, paced to the bureau's rate; a 429 is retried after its Retry-After. */
async function fetchDocument(url: URL, def: TableDef, timeoutMs: number, pacer: Pacer): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    await pacer.take();
    const res = await send(url, def, timeoutMs);
    if (res.statusCode === 429) {
      await res.body.dump().catch(() => undefined);
      const after = retryAfterMs(res.headers['retry-after']) ?? 1000 * 2 ** attempt;
      if (attempt >= MAX_429_RETRIES || after > MAX_RETRY_AFTER_MS)
        throw new UpstreamError(
          'status',
          after > MAX_RETRY_AFTER_MS
            ? `${def.table} answered 429 (rate limited) with Retry-After ${Math.round(after / 1000)} s, longer than the ${MAX_RETRY_AFTER_MS / 1000} s waited for`
            : `${def.table} still answered 429 (rate limited) after ${attempt} retries`,
          429,
        );
      await wait(after);
      continue;
    }
    return readDocument(res, def);
  }
}

async function send(url: URL, def: TableDef, timeoutMs: number) {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await request(url, {
      method: def.query === undefined ? 'GET' : 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': 'nordic-company-data (statistics sync)',
      },
      body: def.query === undefined ? undefined : JSON.stringify(def.query),
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw new UpstreamError('timeout', `${def.table} timed out after ${timeoutMs} ms`);
    throw new UpstreamError('network', `${def.table}: ${(err as Error).message}`);
  }
}

async function readDocument(res: Awaited<ReturnType<typeof request>>, def: TableDef): Promise<unknown> {
  if (res.statusCode !== 200) {
    await res.body.dump().catch(() => undefined);
    throw new UpstreamError('status', `${def.table} answered ${res.statusCode}`, res.statusCode);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_BYTES) {
      res.body.destroy();
      throw new UpstreamError('too-large', `${def.table}: answer larger than ${MAX_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(
      Buffer.concat(chunks)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
  } catch {
    throw new UpstreamError('malformed', `${def.table}: answer is not JSON`);
  }
}

/**
 * One table's figures: by its fixed query, or (a definition with `wanted`, PxWeb) by the query
 * its own metadata allows, read by a GET of the table URL first. A metadata misfit fails the
 * table with what no longer fits, before any data query.
 */
async function readTable(bureau: Bureau, def: TableDef, url: URL, timeoutMs: number, pacer: Pacer) {
  if (!def.wanted) return extractFigures(bureau, def, await fetchDocument(url, def, timeoutMs, pacer));
  const meta = readPxMetadata(await fetchDocument(url, { ...def, query: undefined }, timeoutMs, pacer));
  const plan = planQuery(meta, def.wanted, bureau.roles, def.scope === 'municipality' ? 'area' : 'industry');
  if (!plan.ok) throw new MetadataError(`${def.table}: metadata no longer fits: ${plan.problems.join('; ')}`);
  const live = { ...def, keyDim: plan.keyDim, timeDim: plan.timeDim };
  const queries = pxQueries(plan, meta, CELL_LIMITS[bureau.country]);
  const docs: unknown[] = [];
  for (const query of queries) docs.push(await fetchDocument(url, { ...live, query }, timeoutMs, pacer));
  if (docs.length === 1) return extractFigures(bureau, live, docs[0]);
  // A part of a split query may hold only non-municipal areas; the table needs one figure in all.
  const reads = docs.map((doc) => {
    try {
      return extractFigures(bureau, live, doc);
    } catch (err) {
      if (err instanceof JsonStatError && /: no \w+ figures in the answer$/.test(err.message)) return null;
      throw err;
    }
  });
  const found = reads.filter((r) => r !== null);
  if (!found.length) throw new JsonStatError(`${def.table}: no ${def.scope} figures in the answer`);
  return { figures: found.flatMap((r) => r.figures), updated: found[0].updated };
}

/**
 * Every table of one bureau, fetched one after the other (politeness). A table that fails is
 * reported in `failedTables` and the rest still count: one renamed or withdrawn table must not
 * cost a country its population and income figures. When every table fails the bureau fails.
 */
export async function fetchBureau(bureau: Bureau, baseUrl: string, timeoutMs = 30_000): Promise<BureauData> {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : baseUrl + '/');
  const data: BureauData = { figures: [], tables: [], failedTables: [] };
  const pacer = createPacer(RATE_LIMITS[bureau.country]);
  let firstError: unknown;
  for (const def of bureau.tables) {
    const url = new URL(def.path, base);
    let read: ReturnType<typeof extractFigures>;
    try {
      read = await readTable(bureau, def, url, timeoutMs, pacer);
    } catch (err) {
      firstError ??= err;
      const message = (err as Error).message;
      data.failedTables.push({
        table: def.table,
        scope: def.scope,
        measure: def.measure,
        // Health shows the reason per table: name the table where the reader did not.
        reason: message.startsWith(def.table) ? message : `${def.table}: ${message}`,
      });
      continue;
    }
    const { figures, updated } = read;
    data.figures.push(...figures);
    data.tables.push({
      scope: def.scope,
      measure: def.measure,
      table: def.table,
      title: def.title,
      unit: def.unit,
      year: Math.max(...figures.map((f) => f.year)),
      url: url.toString(),
      updated,
    });
  }
  if (data.tables.length === 0 && firstError !== undefined) throw firstError;
  return data;
}
