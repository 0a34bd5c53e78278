// Where a batch statement reads its rows from. On PGlite the rows travel as one jsonb parameter
// (`jsonb_to_recordset`). On a PostgreSQL server they are COPYed (text format, pg-copy-streams)
// into a per-session temporary staging table, and the statement reads that table: COPY skips
// building a JSON document in this process and parsing it again as jsonb in the server.
// PGlite keeps the jsonb path: pg-copy-streams through PGlite's pg adapter killed the instance
// (docs/STACK notes, §3), and its own `/dev/blob` COPY is not reachable through the pg Pool.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Kysely, PostgresDialect, sql, type RawBuilder, type Transaction } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from './schema.ts';

/** A batch's record shape: its field names and SQL types, in the order of the staging table. */
export interface RecordShape {
  /** Name of the staging table (a temporary table of the session). */
  stage: string;
  fields: [name: string, type: string][];
}

/**
 * Makes `rows` readable by the next statement and gives its FROM item, aliased `x`. On a server
 * it can also COPY rows straight into a table (`copyInto`), for an append that needs no merge.
 */
export type RowSource = ((shape: RecordShape, rows: Record<string, unknown>[]) => Promise<RawBuilder<unknown>>) & {
  /** COPYs rows given as COPY text (`copyRow`, one line each, no newline) into `columns` of `table`. */
  copyInto?: (table: string, columns: string[], lines: Iterable<string>) => Promise<void>;
};

export const jsonRows: RowSource = async (shape, rows) =>
  sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${sql.raw(shape.fields.map(([n, t]) => `${n} ${t}`).join(', '))})`;

/** Batches from this many rows up are COPYed on a PostgreSQL server. */
export const COPY_MIN_ROWS = 100;

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const NEEDS_ESCAPE = /[\\\n\r\t]/;

/** A text[] literal: every element quoted, so commas, braces and spaces need no thought. */
const arrayLiteral = (items: unknown[]) =>
  `{${items.map((i) => (i === null ? 'NULL' : `"${String(i).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

/** One value in COPY's text format (a missing key is NULL, as jsonb_to_recordset reads it). */
export function copyText(v: unknown, type: string): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number') return String(v);
  const s =
    v instanceof Date
      ? v.toISOString()
      : typeof v === 'string'
        ? v
        : type === 'text[]' && Array.isArray(v)
          ? arrayLiteral(v)
          : JSON.stringify(v);
  // Most values hold nothing to escape; a test is cheaper than a replace that finds nothing.
  return NEEDS_ESCAPE.test(s) ? s.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]) : s;
}

/** One row in COPY's text format, without its newline. */
export const copyRow = (fields: RecordShape['fields'], row: Record<string, unknown>): string =>
  fields.map(([n, t]) => copyText(row[n], t)).join('\t');

/** Rows of COPY text, a few hundred per chunk (not one string for the whole batch). */
function* copyChunks(lines: Iterable<string>): Generator<string> {
  let chunk = '';
  let n = 0;
  for (const line of lines) {
    chunk += line + '\n';
    if (++n % 256 === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

function* copyLines(fields: RecordShape['fields'], rows: Record<string, unknown>[]): Generator<string> {
  for (const row of rows) yield copyRow(fields, row);
}

/**
 * A row source that COPYs into `<stage>` on `client`. The staging table lives as long as the
 * session and is emptied at every commit (ON COMMIT DELETE ROWS), so a batch sees its own rows
 * only; it is created on first use in each session.
 */
function copiedRows(trx: Transaction<Database>, client: pg.PoolClient): RowSource {
  const copy = (table: string, columns: string[], lines: Iterable<string>) =>
    pipeline(
      Readable.from(copyChunks(lines)),
      client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)),
    );
  const source: RowSource = async (shape, rows) => {
    // A few rows (the events of a batch that changed little) travel cheaper as one parameter.
    if (rows.length < COPY_MIN_ROWS) return jsonRows(shape, rows);
    const columns = shape.fields.map(([n, t]) => `${n} ${t}`).join(', ');
    await sql.raw(`CREATE TEMP TABLE IF NOT EXISTS ${shape.stage} (${columns}) ON COMMIT DELETE ROWS`).execute(trx);
    // A second batch of the same shape in one transaction starts from an empty table too (DELETE,
    // not TRUNCATE: the table is empty at a transaction's start, and TRUNCATE would give it a
    // new file every batch).
    await sql.raw(`DELETE FROM ${shape.stage}`).execute(trx);
    await copy(
      shape.stage,
      shape.fields.map(([n]) => n),
      copyLines(shape.fields, rows),
    );
    return sql.raw(`${shape.stage} AS x`);
  };
  source.copyInto = copy;
  return source;
}

/**
 * Runs `fn` in one transaction whose batch statements read their rows through the returned
 * source: COPY on a PostgreSQL server (`copyPool`) for a batch of `batchSize` ≥ COPY_MIN_ROWS,
 * jsonb otherwise.
 */
export function rowSourceTransactions(db: Kysely<Database>, copyPool?: pg.Pool) {
  return async <T>(batchSize: number, fn: (trx: Transaction<Database>, rows: RowSource) => Promise<T>): Promise<T> => {
    // A small write (a live fetch, an update of a few companies) gains nothing from COPY and
    // would pay for a client of its own, a staging table and a second round trip.
    if (!copyPool || batchSize < COPY_MIN_ROWS) return db.transaction().execute((trx) => fn(trx, jsonRows));
    // COPY needs the pg client itself, so the transaction runs on one checked-out client that a
    // Kysely of its own drives (its "pool" hands out that client and never releases it).
    const client = await copyPool.connect();
    let failed = false;
    try {
      const single = new Kysely<Database>({
        dialect: new PostgresDialect({
          pool: {
            connect: async () => ({ query: client.query.bind(client), release: () => undefined }),
            end: async () => undefined,
          } as never,
        }),
      });
      return await single.transaction().execute((trx) => fn(trx, copiedRows(trx, client)));
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // A client whose COPY failed part-way is not handed out again.
      client.release(failed);
    }
  };
}

/** The shape of a batch of `columns` (hashed-upsert's column lists) plus fields that are no column. */
export const recordShape = (stage: string, columns: [string, string, unknown][], extra: [string, string][] = []) => ({
  stage,
  fields: [...columns.map(([n, t]) => [n, t] as [string, string]), ...extra],
});
