// The `ownership` events of shareholder imports (hand-written register years in the real
// Aksjonærregisteret CSV layout, loaded through the real shareholders job, events read from
// GET /api/events): one event per company and pair of consecutive register years, listing
// exactly what GET /api/companies/{orgNumber}/ownership-changes lists for that pair; none for a
// first year or a re-run of the same file; a year imported out of order and a corrected year.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import '../../src/jobs/shareholders.ts';
import { byCompany, byPerson, org, removeRegisters, writeRegister, type Line } from '../fixtures/aksjonaer/build.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;

const n = (i: number) => org(800 + i);
const [X, Y, Z, H1, H2, H3] = [n(0), n(1), n(2), n(3), n(4), n(5)];
const co = (investee: string, holder: string, count: number) =>
  byCompany(investee, `C ${investee}`, holder, `H ${holder}`, count, 100);
const person = (investee: string, count: number) => byPerson(investee, `C ${investee}`, 'PIA PERSEN', 1985, count, 100);

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, { tier: 'internal' })).raw;
});
afterAll(async () => {
  await server?.close();
  removeRegisters();
});

type Event = {
  seq: number;
  orgNumber: string;
  category: string;
  type: string;
  fieldsChanged: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  source: string;
};
type Owner = { kind: string; orgNumber: string | null; name: string | null; country: string | null };
type Change = {
  fromYear: number;
  toYear: number;
  entered: (Owner & { pctBefore: number; pctAfter: number })[];
  left: (Owner & { pctBefore: number; pctAfter: number })[];
  rose: (Owner & { pctBefore: number; pctAfter: number })[];
  fell: (Owner & { pctBefore: number; pctAfter: number })[];
  largestOwner: { before: (Owner & { pct: number }) | null; after: (Owner & { pct: number }) | null; changed: boolean };
};

const get = (path: string) => http(server.url, 'GET', path, { key });

/** Imports one year and returns the ownership events it appended (over GET /api/events). */
async function importYear(year: number, lines: Line[]): Promise<Event[]> {
  const top = await get('/api/events?category=ownership&limit=1000');
  const after = top.body.nextAfter as number;
  const file = writeRegister(`aksjeeierbok_${year}.csv`, lines);
  expect(await runJob(server.ctx, 'shareholders', { file }, () => undefined)).toMatchObject({ status: 'ok' });
  const r = await get(`/api/events?category=ownership&after=${after}&limit=1000`);
  expect(r.status).toBe(200);
  return r.body.data as Event[];
}

/** The event a listed change must give: each owner as "name (number): share %", before and after. */
function expectedEvent(orgNumber: string, c: Change) {
  const text = (o: Owner, share: number) =>
    `${o.name ?? 'a natural person'}${o.orgNumber ? ` (${o.orgNumber})` : ''}: ${share} %`;
  const lists = (['entered', 'left', 'rose', 'fell'] as const).filter((f) => c[f].length);
  const side = (when: 'pctBefore' | 'pctAfter', largest: (Owner & { pct: number }) | null) => ({
    year: when === 'pctBefore' ? c.fromYear : c.toYear,
    ...Object.fromEntries(lists.map((f) => [f, c[f].map((o) => text(o, o[when]))])),
    ...(c.largestOwner.changed ? { largestOwner: largest ? text(largest, largest.pct) : null } : {}),
  });
  return {
    orgNumber,
    category: 'ownership',
    type: 'owners_changed',
    source: 'Aksjonærregisteret',
    fieldsChanged: ['year', ...lists, ...(c.largestOwner.changed ? ['largestOwner'] : [])],
    before: side('pctBefore', c.largestOwner.before),
    after: side('pctAfter', c.largestOwner.after),
  };
}

/** Every event equals the listing of its company's pair, and every non-empty listed pair has one. */
async function expectEventsAsListed(events: Event[], pairs: [string, number, number][]) {
  const got = events.map((e) => [e.orgNumber, e.before.year, e.after.year]);
  expect(got.sort()).toEqual([...pairs].sort());
  for (const [orgNumber, from, to] of pairs) {
    const r = await get(`/api/companies/${orgNumber}/ownership-changes?fromYear=${from}&toYear=${to}`);
    expect(r.body.changes).toHaveLength(1);
    const event = events.find((e) => e.orgNumber === orgNumber && e.before.year === from)!;
    expect(event).toMatchObject(expectedEvent(orgNumber, r.body.changes[0] as Change));
  }
}

describe('ownership events of shareholder imports', () => {
  it('lists per company and year pair what ownership-changes lists, once', async () => {
    // A first year: nothing to compare.
    expect(await importYear(2022, [co(X, H1, 60), co(X, H2, 40), co(Y, H1, 100)])).toEqual([]);

    // 2024: X's H2 left, H3 entered, H1 fell 60 → 30 and H3 is the largest owner; Y is unchanged;
    // Z is new (a company with one year has no pair).
    const y2024 = [co(X, H1, 30), co(X, H3, 70), co(Y, H1, 100), co(Z, H2, 100)];
    const first = await importYear(2024, y2024);
    await expectEventsAsListed(first, [[X, 2022, 2024]]);
    expect(first[0]).toMatchObject({
      fieldsChanged: ['year', 'entered', 'left', 'fell', 'largestOwner'],
      before: {
        year: 2022,
        entered: [`H ${H3} (${H3}): 0 %`],
        left: [`H ${H2} (${H2}): 40 %`],
        fell: [`H ${H1} (${H1}): 60 %`],
        largestOwner: `H ${H1} (${H1}): 60 %`,
      },
      after: {
        year: 2024,
        entered: [`H ${H3} (${H3}): 70 %`],
        left: [`H ${H2} (${H2}): 0 %`],
        fell: [`H ${H1} (${H1}): 30 %`],
        largestOwner: `H ${H3} (${H3}): 70 %`,
      },
    });

    // The same file again: the same pairs with the same changes, so no event.
    expect(await importYear(2024, y2024)).toEqual([]);

    // 2023, imported late, lies between: X 2022 → 2023 (H1 fell 5 points, H2 rose 5) and
    // 2023 → 2024; Y 2022 → 2023 (H1 fell 10, a person entered, hidden) and 2023 → 2024.
    const y2023 = [co(X, H1, 55), co(X, H2, 45), co(Y, H1, 90), person(Y, 10)];
    const late = await importYear(2023, y2023);
    await expectEventsAsListed(late, [
      [X, 2022, 2023],
      [X, 2023, 2024],
      [Y, 2022, 2023],
      [Y, 2023, 2024],
    ]);
    const y = late.find((e) => e.orgNumber === Y && e.before.year === 2022)!;
    expect(y).toMatchObject({
      fieldsChanged: ['year', 'fell'],
      before: { year: 2022, fell: [`H ${H1} (${H1}): 100 %`] },
      after: { year: 2023, fell: [`H ${H1} (${H1}): 90 %`] },
    });
    expect(JSON.stringify(late)).not.toMatch(/PIA|PERSEN|1985/);

    // 2023 corrected for X only (H1 70, H2 30): both of X's pairs change, Y's do not.
    const fixed = await importYear(2023, [co(X, H1, 70), co(X, H2, 30), co(Y, H1, 90), person(Y, 10)]);
    await expectEventsAsListed(fixed, [
      [X, 2022, 2023],
      [X, 2023, 2024],
    ]);
  }, 240_000); // five imports through the real job
});
