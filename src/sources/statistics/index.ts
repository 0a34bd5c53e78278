// Fetches a bureau's tables and turns each JSON-stat answer into figures: one value per
// municipality (or NACE division) for the latest period the table holds for it.
import { request } from 'undici';
import { UpstreamError } from '../upstream-http.ts';
import { JsonStatError, readJsonStat } from './json-stat.ts';
import { dstGroup, dstGroupKey, naceSection } from './codes.ts';
import { MetadataError, planQuery, pxQueries, readPxMetadata, readTableinfo, statbankPath } from './metadata.ts';
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
import type { Bureau, IndustryLevel, TableDef } from './tables.ts';

export { JsonStatError, MAX_CELLS, readJsonStat } from './json-stat.ts';
export * from './tables.ts';
export * from './codes.ts';
export * from './metadata.ts';
export * from './pacing.ts';

interface StatFigure {
  scope: 'municipality' | 'industry';
  measure: string;
  /** Municipality code (as our lists write it), NACE division ("62"), section ("J") or bureau group ("DB07-10:5"). */
  key: string;
  /** What the key is: the level the bureau published the figure at. */
  level: 'municipality' | IndustryLevel;
  /** The bureau's label of the industry code (section or grouping name); null for municipalities. */
  label: string | null;
  /** Startup survival: the year the firms started. */
  cohort: number | null;
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
  /** Unconfirmed tables whose live metadata did not fit: the measure is unavailable, with the reason. */
  unavailable: {
    table: string;
    scope: StatTableInfo['scope'];
    measure: string;
    title: string;
    unit: string;
    url: string;
    reason: string;
  }[];
}

/** Reference year of a period code: "2025", "2025K3" (quarter), "2024M12" (month). */
function yearOf(period: string): number | null {
  const m = /^(\d{4})/.exec(period);
  return m ? Number(m[1]) : null;
}

/** What an industry code of a table is, at the levels the table is read at; null: none of them (a total, a group). */
function industryKey(
  bureau: Bureau,
  def: TableDef,
  code: string,
  label: string | undefined,
): Pick<StatFigure, 'key' | 'level' | 'label'> | null {
  const levels = def.levels ?? ['division'];
  const text = label ?? null;
  const division = levels.includes('division') ? bureau.division(code) : null;
  if (division !== null) return { key: division, level: 'division', label: text };
  const section = levels.includes('section') ? naceSection(code) : null;
  if (section !== null) return { key: section, level: 'section', label: text };
  const group = levels.includes('grouping') ? dstGroup(code) : null;
  if (group !== null)
    return {
      key: dstGroupKey(group),
      level: 'grouping',
      label: `${text ?? group} (Statistics Denmark DB07 10-grouping)`,
    };
  return null;
}

/**
 * The figures of one table's JSON-stat answer: per key, the value of its latest period (summed
 * over `sumDims`; of the oldest cohort at that period where the table has `cohortDim`).
 */
export function extractFigures(
  bureau: Bureau,
  def: TableDef,
  doc: unknown,
): { figures: StatFigure[]; updated: string | null } {
  const t = readJsonStat(doc);
  const sums = def.sumDims ?? [];
  for (const dim of [def.keyDim, def.timeDim, ...sums, ...(def.cohortDim ? [def.cohortDim] : [])])
    if (!t.ids.includes(dim)) throw new JsonStatError(`${def.table}: dimension ${dim} is missing`);
  const free = new Set([def.keyDim, def.timeDim, ...sums, def.cohortDim]);
  for (const id of t.ids)
    if (!free.has(id) && t.categories[id].length !== 1)
      throw new JsonStatError(`${def.table}: dimension ${id} has ${t.categories[id].length} categories, 1 expected`);
  // One total per key, period and cohort: the cells of the summed dimensions added (a
  // suppressed part makes the total unknown).
  const groups = new Map<string, { code: string; period: string; cohort: string | null; value: number | null }>();
  for (const cell of t.cells()) {
    const code = cell.codes[def.keyDim];
    const period = cell.codes[def.timeDim];
    const cohort = def.cohortDim ? cell.codes[def.cohortDim] : null;
    const g = `${code}\u0000${period}\u0000${cohort}`;
    const seen = groups.get(g);
    if (!seen) groups.set(g, { code, period, cohort, value: cell.value });
    else seen.value = seen.value === null || cell.value === null ? null : seen.value + cell.value;
  }
  // Periods (and cohorts) of one table share a format ("2025", "2025K3"), so they sort as text.
  const latest = new Map<string, StatFigure & { period: string }>();
  for (const g of groups.values()) {
    if (g.value === null) continue;
    const at =
      def.scope === 'municipality'
        ? (() => {
            const m = bureau.municipality(g.code);
            return m === null ? null : { key: m, level: 'municipality' as const, label: null };
          })()
        : industryKey(bureau, def, g.code, t.labels[def.keyDim]?.[g.code]);
    const year = yearOf(g.period);
    if (at === null || year === null) continue;
    const seen = latest.get(at.key);
    const newer =
      !seen ||
      g.period > seen.period ||
      (g.period === seen.period && g.cohort !== null && String(g.cohort) < String(seen.cohort));
    if (!newer) continue;
    const cohort = g.cohort === null ? null : yearOf(g.cohort);
    latest.set(at.key, {
      scope: def.scope,
      measure: def.measure,
      ...at,
      cohort,
      value: g.value,
      year,
      table: def.table,
      unit: def.unit,
      period: g.period,
    });
  }
  if (latest.size === 0) throw new JsonStatError(`${def.table}: no ${def.scope} figures in the answer`);
  return { figures: [...latest.values()].map(({ period: _p, ...f }) => f), updated: t.updated };
}

const MAX_BYTES = 20 * 1024 * 1024;

/** What is asked of a bureau: a table's metadata or data, by GET, or a PxWeb query by POST. */
interface Ask {
  table: string;
  query?: unknown;
}

/** One answer, paced to the bureau's rate; a 429 is retried after its Retry-After. */
async function fetchDocument(url: URL, def: Ask, timeoutMs: number, pacer: Pacer): Promise<unknown> {
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

async function send(url: URL, def: Ask, timeoutMs: number) {
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

async function readDocument(res: Awaited<ReturnType<typeof request>>, def: Ask): Promise<unknown> {
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

/** A table's metadata URL: PxWeb's table URL itself, StatBank's `tableinfo/{id}?format=JSON`. */
export function metadataUrl(bureau: Bureau, def: TableDef, base: URL): URL {
  return new URL(bureau.api === 'statbank' ? `tableinfo/${encodeURIComponent(def.table)}?format=JSON` : def.path, base);
}

/** A metadata misfit of a table the evidence could not confirm: the measure is unavailable, not degraded. */
class UnavailableError extends Error {}

/**
 * One table's figures: its metadata read first (PxWeb GET of the table URL, StatBank
 * tableinfo), the query built from it, then the data asked for (PxWeb POST, split at the
 * bureau's cell limit; StatBank GET). A metadata misfit fails the table with what no longer
 * fits, before any data query; for an unconfirmed row it makes the measure unavailable.
 */
async function readTable(bureau: Bureau, def: TableDef, base: URL, timeoutMs: number, pacer: Pacer) {
  const metaUrl = metadataUrl(bureau, def, base);
  const metaDoc = await fetchDocument(metaUrl, { table: def.table }, timeoutMs, pacer);
  const meta = bureau.api === 'statbank' ? readTableinfo(metaDoc) : readPxMetadata(metaDoc);
  const plan = planQuery(meta, def.wanted, bureau.roles, def.scope === 'municipality' ? 'area' : 'industry');
  if (!plan.ok) {
    const problem = `${def.table}: metadata no longer fits: ${plan.problems.join('; ')}`;
    if (def.evidence.status === 'unconfirmed')
      throw new UnavailableError(
        `${def.table}: not confirmed (statistics-tables.md ${def.evidence.row}) and its metadata does not fit: ${plan.problems.join('; ')}`,
      );
    throw new MetadataError(problem);
  }
  const live: TableDef = {
    ...def,
    keyDim: plan.keyDim,
    timeDim: plan.timeDim,
    sumDims: plan.sumDims,
    ...(plan.cohortDim ? { cohortDim: plan.cohortDim } : {}),
  };
  const docs: unknown[] = [];
  let dataUrl: URL;
  if (bureau.api === 'statbank') {
    dataUrl = new URL(statbankPath(def.table, plan), base);
    docs.push(await fetchDocument(dataUrl, { table: def.table }, timeoutMs, pacer));
  } else {
    dataUrl = new URL(def.path, base);
    for (const query of pxQueries(plan, meta, CELL_LIMITS[bureau.country]))
      docs.push(await fetchDocument(dataUrl, { table: def.table, query }, timeoutMs, pacer));
  }
  const updated = meta.updated;
  if (docs.length === 1) {
    const read = extractFigures(bureau, live, docs[0]);
    return { ...read, updated: read.updated ?? updated, url: dataUrl };
  }
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
  return { figures: found.flatMap((r) => r.figures), updated: found[0].updated ?? updated, url: dataUrl };
}

/**
 * Every table of one bureau, fetched one after the other (politeness). A table that fails is
 * reported in `failedTables` and the rest still count: one renamed or withdrawn table must not
 * cost a country its population and income figures. When every table fails the bureau fails.
 */
export async function fetchBureau(bureau: Bureau, baseUrl: string, timeoutMs = 30_000): Promise<BureauData> {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : baseUrl + '/');
  const data: BureauData = { figures: [], tables: [], failedTables: [], unavailable: [] };
  const pacer = createPacer(RATE_LIMITS[bureau.country]);
  let firstError: unknown;
  for (const def of bureau.tables) {
    let read: Awaited<ReturnType<typeof readTable>>;
    try {
      read = await readTable(bureau, def, base, timeoutMs, pacer);
    } catch (err) {
      if (err instanceof UnavailableError) {
        data.unavailable.push({
          table: def.table,
          scope: def.scope,
          measure: def.measure,
          title: def.title,
          unit: def.unit,
          url: metadataUrl(bureau, def, base).toString(),
          reason: err.message,
        });
        continue;
      }
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
    const { figures, updated, url } = read;
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
  // Unavailable (unconfirmed) tables do not count: a bureau whose every confirmed table failed fails.
  if (data.tables.length === 0 && firstError !== undefined) throw firstError;
  return data;
}
