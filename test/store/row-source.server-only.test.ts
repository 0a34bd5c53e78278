// Rows handed to a batch statement arrive the same whether they are COPYed (a PostgreSQL server,
// 100 rows and more) or sent as one jsonb parameter: awkward text, arrays, JSON and NULLs
// included. COPY's text format escapes differently from JSON, so both paths are compared.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRow, jsonRows, rowSourceTransactions, type RecordShape } from '../../src/store/engine/row-source.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const SHAPE: RecordShape = {
  stage: 'stage_row_source_test',
  fields: [
    ['n', 'integer'],
    ['label', 'text'],
    ['tags', 'text[]'],
    ['doc', 'jsonb'],
    ['flag', 'boolean'],
    ['day', 'date'],
  ],
};

const AWKWARD = ['tab\there', 'line\nbreak', 'back\\slash', 'quote "q"', 'comma, {brace}', '\\N', 'Æøå 💼', '', 'NULL'];

const rows = Array.from({ length: 150 }, (_, n) => ({
  n,
  label: AWKWARD[n % AWKWARD.length],
  tags: n % 7 === 0 ? [] : [AWKWARD[n % AWKWARD.length], AWKWARD[(n + 1) % AWKWARD.length]],
  doc: n % 5 === 0 ? null : { name: AWKWARD[n % AWKWARD.length], nested: { list: [n, 'a\tb'] } },
  flag: n % 3 === 0 ? null : n % 2 === 0,
  day: n % 4 === 0 ? undefined : '2026-11-27',
}));

describe('row sources on a PostgreSQL server', () => {
  it('reads COPYed rows exactly as the jsonb parameter gives them', async () => {
    const { db, pool } = server.ctx.store;
    const transact = rowSourceTransactions(db, pool);
    const select = (from: unknown) =>
      sql<Record<string, unknown>>`SELECT n, label, tags, doc, flag, day::text FROM ${from as never} ORDER BY n`;
    const copied = await transact(
      rows.length,
      async (trx, source) => (await select(await source(SHAPE, rows)).execute(trx)).rows,
    );
    const viaJson = await transact(1, async (trx) => (await select(await jsonRows(SHAPE, rows)).execute(trx)).rows);
    expect(copied).toHaveLength(150);
    expect(copied).toEqual(viaJson);
    expect(copied[1]).toMatchObject({ label: 'line\nbreak', tags: ['line\nbreak', 'back\\slash'] });
    expect(copied[5]).toMatchObject({ label: '\\N', doc: null });
  });

  it('COPYs rows straight into a table with the same values', async () => {
    const { db, pool } = server.ctx.store;
    const transact = rowSourceTransactions(db, pool);
    const read = await transact(rows.length, async (trx, source) => {
      await sql`CREATE TEMP TABLE row_source_target (n integer, label text, tags text[], doc jsonb, flag boolean, day date) ON COMMIT DROP`.execute(
        trx,
      );
      expect(source.copyInto).toBeTypeOf('function');
      await source.copyInto!(
        'row_source_target',
        SHAPE.fields.map(([n]) => n),
        rows.map((r) => copyRow(SHAPE.fields, r)),
      );
      return (
        await sql<
          Record<string, unknown>
        >`SELECT n, label, tags, doc, flag, day::text FROM row_source_target ORDER BY n`.execute(trx)
      ).rows;
    });
    const viaJson = await transact(
      1,
      async (trx) =>
        (
          await sql<
            Record<string, unknown>
          >`SELECT n, label, tags, doc, flag, day::text FROM ${await jsonRows(SHAPE, rows)} ORDER BY n`.execute(trx)
        ).rows,
    );
    expect(read).toEqual(viaJson);
  });
});
