// Worker-thread side of the embedded engine (see pglite-thread.ts): owns the PGlite instance,
// executes wire-protocol messages one at a time and returns the raw response bytes.
// Plain JavaScript: worker threads do not inherit the TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const port = parentPort;

try {
  const lite = await PGlite.create(workerData.dataDir, { extensions: { pg_trgm } });
  let queue = Promise.resolve();
  port.on('message', (m) => {
    // One statement stream at a time, in arrival order (PGlite has one backend).
    queue = queue.then(async () => {
      try {
        if (m.op === 'exec-protocol') {
          // A copy: the result may be a view into the WASM heap, which must not be transferred.
          const data = (await lite.execProtocolRaw(m.payload)).slice();
          port.postMessage({ id: m.id, ok: true, data }, [data.buffer]);
        } else if (m.op === 'exec') {
          await lite.exec(m.payload);
          port.postMessage({ id: m.id, ok: true });
        } else {
          // CHECKPOINT first: a data directory closed mid-WAL fails to open next time.
          await lite.exec('CHECKPOINT').catch(() => undefined);
          await lite.close();
          port.postMessage({ id: m.id, ok: true });
        }
      } catch (err) {
        if (process.env.NCD_DEBUG_PGLITE) console.error('pglite worker', m.op, err);
        port.postMessage({ id: m.id, ok: false, error: err.message });
      }
    });
  });
  port.postMessage({ ready: true });
} catch (err) {
  port.postMessage({ fatal: `the embedded database could not be opened: ${err.message}` });
}
