// On a PostgreSQL server a write of 100 companies and more COPYs its rows into a staging table,
// and the upsert stages its core events from that table (store/core-events-sql.ts); a smaller
// write reads its rows as jsonb. The events read back must be the same on both paths, awkward
// text included (tabs, newlines, backslashes in JSON), in order, with gapless seqs, also when a
// COPYed batch changes fewer than 100 companies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const AWKWARD = ['tab\there', 'line\nbreak', 'back\\slash', 'quote "q"', 'comma, {brace}', '\\N', 'Æøå 💼', 'cr\rhere'];

const cores = (count: number, offset: number) =>
  Array.from({ length: count }, (_, i) => mapEnhet(generateCompany(offset + i, 7331).enhet));

/** The events of seqs after `after`, as the API shows them but without id and time. */
async function eventsAfter(after: number) {
  const { events } = await server.ctx.repos.eventLog.list(after, {}, 10_000);
  return events.map(({ seq, orgNumber, category, type, fieldsChanged, before, after: a, source }) => ({
    seq,
    orgNumber,
    category,
    type,
    fieldsChanged,
    before,
    after: a,
    source,
  }));
}

describe('the core events of a COPYed write', () => {
  it('appends the same events as the jsonb path, awkward names included, gapless and in order', async () => {
    const writes = server.ctx.repos.companyWrites;
    const copied = cores(150, 0);
    // Twins of the first 50 under numbers of their own: the same values, so the same events.
    const viaJson = cores(50, 1000).map((other, i) => ({ ...copied[i], orgNumber: other.orgNumber }));
    await writes.write(copied.map((core) => ({ core })));
    for (const core of viaJson) await writes.write([{ core }]);
    const rename = (core: (typeof copied)[number], i: number) => ({
      core: {
        ...core,
        name: `${AWKWARD[i % AWKWARD.length]} ${i}`,
        businessAddress: core.businessAddress && { ...core.businessAddress, street: `Gate\t${i}\\` },
      },
    });

    // 150 changed companies in one write: COPY, with the events' text made during the upsert.
    const start = (await server.ctx.repos.eventLog.bounds()).lastSeq;
    await writes.write(copied.map(rename));
    const fromCopy = await eventsAfter(start);
    // The same change one company at a time: the jsonb INSERT.
    const mid = (await server.ctx.repos.eventLog.bounds()).lastSeq;
    for (const [i, core] of viaJson.entries()) await writes.write([rename(core, i)]);
    const fromJson = await eventsAfter(mid);

    expect(fromCopy.map((e) => e.seq)).toEqual(Array.from({ length: fromCopy.length }, (_, i) => start + 1 + i));
    expect(fromCopy.filter((e) => e.category === 'name')).toHaveLength(150);
    const shape = (events: typeof fromCopy, numbers: string[]) =>
      events.map(({ seq: _, orgNumber, ...rest }) => ({ company: numbers.indexOf(orgNumber) % 50, ...rest }));
    // Each company of the first 50 of the COPYed write had the same change as its jsonb twin.
    const copiedHead = fromCopy.filter((e) => copied.slice(0, 50).some((c) => c.orgNumber === e.orgNumber));
    expect(
      shape(
        copiedHead,
        copied.map((c) => c.orgNumber),
      ),
    ).toEqual(
      shape(
        fromJson,
        viaJson.map((c) => c.orgNumber),
      ),
    );
    expect(fromCopy[0]).toMatchObject({ after: { name: `${AWKWARD[0]} 0` } });
    expect(fromCopy.find((e) => e.after.name === `${AWKWARD[1]} 1`)).toBeDefined();
  });

  it('stages and numbers the events of a large write that changes only a few companies', async () => {
    const writes = server.ctx.repos.companyWrites;
    const batch = cores(120, 5000);
    await writes.write(batch.map((core) => ({ core })));
    const start = (await server.ctx.repos.eventLog.bounds()).lastSeq;
    await writes.write(batch.map((core, i) => ({ core: i < 3 ? { ...core, name: `${core.name} NY\\${i}` } : core })));
    const events = await eventsAfter(start);
    expect(events).toEqual(
      [0, 1, 2].map((i) => ({
        seq: start + 1 + i,
        orgNumber: batch[i].orgNumber,
        category: 'name',
        type: 'name_changed',
        fieldsChanged: ['name'],
        before: { name: batch[i].name },
        after: { name: `${batch[i].name} NY\\${i}` },
        source: batch[i].source,
      })),
    );
    expect((await server.ctx.repos.eventLog.bounds()).lastSeq).toBe(start + 3);
  });
});
