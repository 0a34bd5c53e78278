// Issue 26, re-screening on list change: a sanctions list sync screens every watched company
// again; a matching entity that the list adds becomes one `screening` event, the same list again
// none, and the list without it one more. The alerts reach the watchlist's destination.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/jobs/runner.ts';
import { generateCompany } from '../../src/sources/brreg/generate.ts';
import { mapEnhet } from '../../src/sources/brreg/map.ts';
import type { StoredEvent } from '../../src/store/events/event-log.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const HEADER =
  'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change';
const UNRELATED =
  'NK-other,Organization,Iranian Revolutionary Guard Corps,IRGC,,ir,,,,,,,EU FSF,2023-04-20,2024-06-01,2023-07-26';
const MATCHING = 'NK-zorbex,Organization,Zorbex Trading,,,no,,,,,,,EU FSF,2024-01-01,2024-06-01,2024-05-01';

let server: TestServer;
let receiver: WebhookReceiver;
let dir: string;
let key: string;
const watched = { ...mapEnhet(generateCompany(0, 326).enhet), name: 'ZORBEX TRADING AS' };

async function syncList(rows: string[]): Promise<StoredEvent[]> {
  const { lastSeq } = await server.ctx.repos.eventLog.bounds();
  const file = path.join(dir, `targets-${lastSeq}-${rows.length}.simple.csv`);
  await writeFile(file, [HEADER, ...rows, ''].join('\n'));
  await runJob(server.ctx, 'sanctions', { file, list: 'eu' }, () => undefined);
  return (await server.ctx.repos.eventLog.list(lastSeq, {}, 100)).events;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  dir = await mkdtemp(path.join(os.tmpdir(), 'screening-events-'));
  server = await startServer({ env: { ALLOW_PRIVATE_DESTINATIONS: 'true' } });
  key = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
  await server.ctx.repos.companyWrites.write([{ core: watched }]);
  await http(server.url, 'POST', '/api/destinations', {
    key,
    body: { name: 'kyc-alerts', type: 'webhook', config: { url: `${receiver.url}/kyc` } },
  });
  await http(server.url, 'POST', '/api/watchlists', {
    key,
    body: { name: 'sanctions', categories: ['screening'], destination: 'kyc-alerts' },
  });
  await http(server.url, 'POST', '/api/watchlists/sanctions/companies', {
    key,
    body: { companies: [{ orgNumber: watched.orgNumber, country: 'NO' }] },
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('re-screening watched companies on list change', () => {
  it('a match that appears or disappears is one `screening` event; an unchanged list none', async () => {
    expect(await syncList([UNRELATED])).toEqual([]);

    const found = await syncList([UNRELATED, MATCHING]);
    expect(found).toEqual([
      expect.objectContaining({
        orgNumber: watched.orgNumber,
        country: 'NO',
        category: 'screening',
        type: 'match_found',
        fieldsChanged: ['matches.NK-zorbex'],
        before: { 'matches.NK-zorbex': null },
      }),
    ]);
    expect(found[0].after['matches.NK-zorbex']).toMatch(/^Zorbex Trading \(eu, score (0\.\d\d|1\.00)\)$/);

    expect(await syncList([MATCHING, UNRELATED])).toEqual([]);

    const cleared = await syncList([UNRELATED]);
    expect(cleared).toEqual([
      expect.objectContaining({
        category: 'screening',
        type: 'match_cleared',
        fieldsChanged: ['matches.NK-zorbex'],
        before: found[0].after,
        after: { 'matches.NK-zorbex': null },
      }),
    ]);

    // The watchlist alerts on `screening` like on any category: both reach its destination.
    await server.services.watchlistDelivery.tick();
    const sent = receiver.requests.filter((r) => r.url === '/kyc');
    expect(sent).toHaveLength(1);
    const body = JSON.parse(sent[0].body) as { watchlist: string; events: StoredEvent[] };
    expect(body.watchlist).toBe('sanctions');
    expect(body.events.map((e) => [e.seq, e.type])).toEqual([
      [found[0].seq, 'match_found'],
      [cleared[0].seq, 'match_cleared'],
    ]);
  });

  it('the global feed and stream never show `screening` events: they would tell who watches whom', async () => {
    const logged = (await server.ctx.repos.eventLog.list(0, { categories: ['screening'] }, 100)).events;
    expect(logged.length).toBeGreaterThanOrEqual(2); // the test above wrote them
    const other = (await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } })).raw;
    for (const caller of [other, key]) {
      for (const q of ['', '?category=screening', `?orgNumber=${watched.orgNumber}`, '?country=NO&limit=5000']) {
        const page = await http(server.url, 'GET', `/api/events${q}`, { key: caller });
        expect(page.status).toBe(200);
        expect(page.body.data.filter((e: StoredEvent) => e.category === 'screening')).toEqual([]);
      }
    }
    // The stream, from the start of the log and live.
    const ctrl = new AbortController();
    const res = await fetch(`${server.url}/api/events/stream?after=0`, {
      headers: { authorization: `Bearer ${other}` },
      signal: ctrl.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
    await syncList([UNRELATED, MATCHING]); // a live `screening` event while the stream is open
    await server.ctx.repos.companyWrites.write([{ core: { ...watched, name: `${watched.name} Renamed` } }]);
    const deadline = Date.now() + 5000;
    while (!/event: name/.test(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    ctrl.abort();
    await reading;
    expect(text).toMatch(/event: name/); // the stream was live and saw the rename after the match
    expect(text).not.toMatch(/event: screening/);
    // The watching project still gets it, through its watchlist.
    await server.services.watchlistDelivery.tick();
    const last = receiver.requests.filter((r) => r.url === '/kyc').at(-1)!;
    expect((JSON.parse(last.body) as { events: StoredEvent[] }).events.map((e) => e.type)).toContain('match_found');
  });
});
