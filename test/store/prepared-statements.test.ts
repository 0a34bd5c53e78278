// Statements marked PREPARED run as named statements (planned once per connection), on the
// engine of this run; unmarked ones stay unnamed, and results do not depend on the naming.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREPARED } from '../../src/store/engine/db.ts';
import { loadGeneratedCompanies } from '../helpers/dataset.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await loadGeneratedCompanies(server, 30);
});
afterAll(async () => {
  await server?.close();
});

const preparedOn = async (client: { query: (text: string) => Promise<{ rows: { statement: string }[] }> }) =>
  (await client.query(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'ncd\\_%'`)).rows.map(
    (r) => r.statement,
  );

describe('prepared statements', () => {
  it('prepares a marked statement once per connection and answers each call with its own values', async () => {
    const client = await server.ctx.store.pool.connect();
    try {
      const text = `${PREPARED} SELECT $1::int * 2 AS n, array_length($2::text[], 1) AS len`;
      const a = await client.query(text, [21, ['x']]);
      const b = await client.query(text, [5, ['x', 'y', 'z']]);
      expect([a.rows[0], b.rows[0]]).toEqual([
        { n: 42, len: 1 },
        { n: 10, len: 3 },
      ]);
      await client.query('SELECT 1 AS unmarked');
      const prepared = await preparedOn(client);
      expect(prepared.filter((s) => s === text)).toHaveLength(1);
      expect(prepared.some((s) => s.includes('unmarked'))).toBe(false);
    } finally {
      client.release();
    }
  });

  it('runs the company read as one prepared statement, with the same records on every call', async () => {
    const numbers = (
      await server.ctx.store.pool.query<{ org_number: string }>(
        'SELECT org_number FROM companies ORDER BY org_number LIMIT 5',
      )
    ).rows.map((r) => r.org_number);
    const opts = { roles: true, subUnits: true, licenses: true } as const;
    const first = await server.ctx.repos.companyReads.load('NO', numbers, opts);
    for (let i = 0; i < 6; i++) expect(await server.ctx.repos.companyReads.load('NO', numbers, opts)).toEqual(first); // past PostgreSQL's 5 custom plans
    expect(first.map((c) => c.row.org_number).sort()).toEqual(numbers);
    // Sequential calls reuse the most recently released connection (pg-pool keeps idle clients
    // last in, first out; the embedded pool has one), so this runs where the reads ran.
    const held = await server.ctx.store.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%rel_financials%'`,
    );
    expect(held.rows[0].n).toBe(1);
  });
});
