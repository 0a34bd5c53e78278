// Worker-thread side of the embedded engine (see pglite-thread.ts): owns the PGlite instance,
// executes wire-protocol messages one at a time and returns the raw response bytes.
// Plain JavaScript: worker threads do not inherit the TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const port = parentPort;

try {
  const lite = await PGlite.create(workerData.dataDir, { extensions: { pg_trgm } });
  // The response bytes of one wire-protocol message, through execProtocolRawStream. Not
  // execProtocolRaw: used alone, it parses every response message into a result list that only
  // execProtocol() empties, so this thread's heap grew by ~13 kB per lookup without bound
  // (454 MB after 36k lookups of a 20k store; a heap snapshot showed 300k retained messages).
  // The chunks are copied: they may be views into the WASM heap, which must not be transferred.
  const execRaw = async (message) => {
    const chunks = [];
    let size = 0;
    await lite.execProtocolRawStream(message, {
      onRawData: (chunk) => {
        chunks.push(chunk.slice());
        size += chunk.length;
      },
    });
    if (chunks.length === 1) return chunks[0];
    const data = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      data.set(c, at);
      at += c.length;
    }
    return data;
  };
  let queue = Promise.resolve();
  port.on('message', (m) => {
    // One statement stream at a time, in arrival order (PGlite has one backend).
    queue = queue.then(async () => {
      try {
        if (m.op === 'exec-protocol') {
          const data = await execRaw(m.payload);
          port.postMessage({ id: m.id, ok: true, data }, [data.buffer]);
        } else if (m.op === 'memory') {
          // Where the embedded engine's memory is: its WebAssembly heap (grows, never shrinks)
          // and this thread's JavaScript heap.
          const { heapUsed, heapTotal } = process.memoryUsage();
          port.postMessage({
            id: m.id,
            ok: true,
            memory: {
              wasmBytes: lite.mod.wasmMemory?.buffer.byteLength ?? lite.mod.HEAPU8?.byteLength ?? 0,
              heapUsed,
              heapTotal,
            },
          });
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
