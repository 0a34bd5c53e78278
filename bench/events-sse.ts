// SSE fan-out benchmark (issue 26): one app process holds N subscribers of GET /api/events/stream
// (N/100 internal keys: 100 open streams per key and process), then ROUNDS rounds of BATCH
// events are appended (one transaction each, as an ingest does). Per round: the time until every
// subscriber has every event, and the process's memory (heap after a GC, and RSS) against the
// level with the subscribers idle, to show it stays bounded. The subscribers run in the same
// process (undici, loopback), so the memory figures are an upper bound for the server alone.
//   DATA_DIR=$(mktemp -d) node --expose-gc --import tsx bench/events-sse.ts 1000 10 1000
import { Agent, request } from 'undici';
import { appendEvents } from '../src/store/events/event-append.ts';
import { addressEvents, benchKey, startBenchApp } from './harness.ts';

const subscribers = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 10);
const batch = Number(process.argv[4] ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (n: number) => Math.round(n / 1024 / 1024);
function memory() {
  gc();
  const m = process.memoryUsage();
  return { heapMb: mb(m.heapUsed), rssMb: mb(m.rss) };
}

const { built, base } = await startBenchApp();
const agent = new Agent({ connections: subscribers + 16, bodyTimeout: 0, headersTimeout: 60_000 });
try {
  const db = built.ctx.store.db;
  const keys = await Promise.all(
    Array.from({ length: Math.ceil(subscribers / 100) }, (_, i) => benchKey(built, `sse${i}`)),
  );
  const top = (await built.ctx.repos.eventLog.bounds()).lastSeq;
  const received = new Array<number>(subscribers).fill(0);
  const closes: (() => void)[] = [];
  const before = memory();
  const t0 = performance.now();
  await Promise.all(
    received.map(async (_, i) => {
      const ctrl = new AbortController();
      closes.push(() => ctrl.abort());
      const res = await request(`${base}/api/events/stream`, {
        headers: { authorization: `Bearer ${keys[Math.floor(i / 100)]}`, 'last-event-id': String(top) },
        dispatcher: agent,
        signal: ctrl.signal,
      });
      if (res.statusCode !== 200) throw new Error(`subscriber ${i}: ${res.statusCode} ${await res.body.text()}`);
      // Count event frames ("\nid: "); the last 4 characters carry over a chunk boundary (too
      // short to hold a whole match, so none is counted twice).
      let carry = '\n';
      res.body.setEncoding('utf8');
      res.body.on('data', (chunk: string) => {
        const text = carry + chunk;
        received[i] += text.split('\nid: ').length - 1;
        carry = text.slice(-4);
      });
      res.body.on('error', () => undefined);
    }),
  );
  const connectMs = performance.now() - t0;
  // Let the hub turn every subscriber live before the first round.
  await new Promise((r) => setTimeout(r, 1000));
  const idle = memory();
  const perRound: { round: number; deliverMs: number; heapMb: number; rssMb: number }[] = [];
  for (let round = 1; round <= rounds; round++) {
    const events = addressEvents(round * batch, batch);
    const t = performance.now();
    await db.transaction().execute((trx) => appendEvents(trx, events));
    const want = round * batch;
    for (let i = 0; i < 6000 && received.some((n) => n < want); i++) await new Promise((r) => setTimeout(r, 10));
    const deliverMs = performance.now() - t;
    perRound.push({ round, deliverMs: Math.round(deliverMs), ...memory() });
  }
  const total = received.reduce((a, b) => a + b, 0);
  const expected = subscribers * rounds * batch;
  console.log(
    JSON.stringify({
      engine: built.ctx.store.engine,
      subscribers,
      open: built.services.eventStream.size(),
      connectMs: Math.round(connectMs),
      delivered: total,
      expected,
      complete: received.every((n) => n === rounds * batch),
      memoryBefore: before,
      memoryIdle: idle,
      perRound,
      maxHeapMb: Math.max(...perRound.map((r) => r.heapMb)),
      maxRssMb: Math.max(...perRound.map((r) => r.rssMb)),
    }),
  );
  for (const close of closes) close();
} finally {
  await agent.close().catch(() => undefined);
  await built.close();
}
