// The Doffin and TED clients against the fake APIs, which keep the live APIs' documented limits:
// Doffin's 1000-hit ceiling per query (read in windows of issue dates, halved while over it), its
// 429 with Retry-After, the subscription key; TED's iteration with scope ALL and the notice's
// XML link.
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDoffinSource, createTedSource, type NoticeRef } from '../../../src/sources/procurement/clients.ts';
import { startFakeProcurement, type FakeProcurement } from '../../fakes/procurement/server.ts';

let fake: FakeProcurement;
const today = () => new Date('2026-11-20T12:00:00Z');
const ids = async (refs: AsyncIterable<NoticeRef>) => {
  const out: string[] = [];
  for await (const r of refs) out.push(r.id);
  return out;
};
const searches = () =>
  fake.requests.filter((r) => r.path === '/doffin/search').map((r) => new URLSearchParams(r.query));

beforeAll(async () => {
  fake = await startFakeProcurement();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.doffin.clear();
  fake.ted.clear();
  fake.requests.length = 0;
  fake.throttle = 0;
});

describe('Doffin client', () => {
  it('reads every notice of weeks holding more than the 1000 hits one query may page through', async () => {
    // 1500 notices over three days of one week, 40 a day on the other days.
    const expected: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const id = `2026-${String(500000 + i)}`;
      fake.doffin.set(id, { issueDate: `2026-11-0${3 + (i % 3)}`, xml: '' });
      expected.push(id);
    }
    for (let d = 6; d <= 19; d++)
      for (let i = 0; i < 40; i++) {
        const id = `2026-${String(600000 + d * 100 + i)}`;
        fake.doffin.set(id, { issueDate: `2026-11-${String(d).padStart(2, '0')}`, xml: '' });
        expected.push(id);
      }
    const got = await ids(createDoffinSource(`${fake.url}/doffin`, 'key', today).list('2026-11-01'));
    expect(got.sort()).toEqual(expected.sort());
    const asked = searches();
    // No query asked past the ceiling (the fake answers those 400, and the client would throw).
    expect(asked.every((q) => Number(q.get('page')) * Number(q.get('numHitsPerPage')) <= 1000)).toBe(true);
    // The first week was split; the last window is open-ended.
    expect(asked[0].get('issueDateFrom')).toBe('2026-11-01');
    expect(asked[0].get('issueDateTo')).toBe('2026-11-08');
    expect(asked.some((q) => q.get('issueDateFrom') === '2026-11-01' && q.get('issueDateTo') === '2026-11-04')).toBe(
      true,
    );
    expect(asked.at(-1)!.get('issueDateTo')).toBeNull();
    expect(asked.every((q) => q.get('sortBy') === 'PUBLICATION_DATE_ASC')).toBe(true);
    expect(fake.requests.every((r) => r.apiKey === 'key')).toBe(true);
  });

  it('lists a notice issued after today (a clock behind Doffin) through the open-ended last window', async () => {
    fake.doffin.set('2027-100001', { issueDate: '2027-01-25', xml: '' });
    expect(await ids(createDoffinSource(`${fake.url}/doffin`, undefined, today).list('2026-11-10'))).toEqual([
      '2027-100001',
    ]);
    expect(fake.requests.every((r) => r.apiKey === undefined)).toBe(true);
  });

  it('waits out 429 answers (Retry-After) and goes on; the download is the notice XML', async () => {
    fake.doffin.set('2026-700001', { issueDate: '2026-11-18', xml: '<ContractNotice/>' });
    fake.throttle = 3;
    const refs: NoticeRef[] = [];
    for await (const r of createDoffinSource(`${fake.url}/doffin`, 'key', today).list('2026-11-15')) refs.push(r);
    expect(refs.map((r) => r.id)).toEqual(['2026-700001']);
    expect(fake.requests.filter((r) => r.path === '/doffin/search')).toHaveLength(4);
    fake.throttle = 1;
    expect(await text(await refs[0].open())).toBe('<ContractNotice/>');
    expect(fake.requests.filter((r) => r.path === '/doffin/download/2026-700001')).toHaveLength(2);
  });

  it('gives up after a few 429s in a row', async () => {
    fake.throttle = 50;
    await expect(ids(createDoffinSource(`${fake.url}/doffin`, 'key', today).list('2026-11-15'))).rejects.toThrow(
      /answered 429/,
    );
    expect(fake.requests).toHaveLength(5);
  });
});

describe('TED client', () => {
  it('iterates the search with scope ALL and fetches each notice from its XML link', async () => {
    for (let i = 1; i <= 130; i++)
      fake.ted.set(`${800000 + i}-2026`, { publicationDate: '2026-11-13', xml: `<n${i}/>` });
    fake.ted.set('700000-2026', { publicationDate: '2026-10-01', xml: '<old/>' });
    const refs: NoticeRef[] = [];
    for await (const r of createTedSource(`${fake.url}/ted`).list('2026-11-01')) refs.push(r);
    expect(refs).toHaveLength(130);
    const bodies = fake.requests.filter((r) => r.path === '/ted/v3/notices/search').map((r) => JSON.parse(r.body));
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({
      query: 'buyer-country IN (NOR SWE DNK FIN ISL) AND publication-date>=20261101',
      scope: 'ALL',
      paginationMode: 'ITERATION',
      limit: 100,
    });
    expect(bodies[0].fields).toEqual(expect.arrayContaining(['publication-number', 'links']));
    expect(bodies[1].iterationNextToken).toBe('100');
    expect(await text(await refs[0].open())).toBe('<n1/>');
    expect(fake.requests.at(-1)!.path).toBe('/ted/en/notice/800001-2026/xml');
  });
});
