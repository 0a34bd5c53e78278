// Event log benchmark (issue 26): appends N events through the store's append path (batches of
// 2,000 in their own transactions, as an ingest does), then drains GET /api/events with
// limit=PAGE (default 5000, the largest page) from seq 0 and reports events per second.
// DATABASE_URL selects PostgreSQL (use a database of your own); otherwise a fresh embedded
// store under DATA_DIR.
//   DATA_DIR=$(mktemp -d) node --import tsx bench/events.ts 100000 [PAGE]
import { appendEvents } from '../src/store/events/event-append.ts';
import { addressEvents, benchKey, getJson, startBenchApp } from './harness.ts';

const total = Number(process.argv[2] ?? 100_000);
const page = Number(process.argv[3] ?? 5000);
const { built, base } = await startBenchApp();
try {
  const db = built.ctx.store.db;
  const t0 = performance.now();
  for (let i = 0; i < total; i += 2000) {
    const batch = addressEvents(i, Math.min(2000, total - i));
    await db.transaction().execute((trx) => appendEvents(trx, batch));
  }
  const appendMs = performance.now() - t0;
  const key = await benchKey(built, 'events');
  const t1 = performance.now();
  let after = (await built.ctx.repos.eventLog.bounds()).lastSeq - total;
  let read = 0;
  for (;;) {
    const r = await getJson(`${base}/api/events?after=${after}&limit=${page}`, key);
    read += r.body.data.length;
    after = r.body.nextAfter;
    if (!r.body.hasMore) break;
  }
  const drainMs = performance.now() - t1;
  console.log(
    JSON.stringify({
      engine: built.ctx.store.engine,
      events: total,
      page,
      appendPerSec: Math.round(total / (appendMs / 1000)),
      drained: read,
      drainPerSec: Math.round(read / (drainMs / 1000)),
    }),
  );
} finally {
  await built.close();
}
