// The embedded engine runs PGlite (PostgreSQL compiled to WASM) on a worker thread: its query
// work is synchronous WASM, and on the main thread every query would stall HTTP handling,
// upstream fetches and timers for as long as it runs. The main thread keeps a small stand-in
// with the two members PGlite's node-postgres adapter uses (`waitReady`, `execProtocolStream`);
// wire-protocol bytes cross the thread boundary and are parsed here with pg-protocol, the
// parser node-postgres itself uses.
import { Worker } from 'node:worker_threads';
import { Parser } from 'pg-protocol/dist/parser.js';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import { fromRoot } from '../../project-root.ts';

interface Reply {
  id: number;
  ok: boolean;
  data?: Uint8Array;
  error?: string;
  memory?: PGliteMemory;
}

/** Bytes held by the embedded engine's thread: its WebAssembly heap and its JavaScript heap. */
export interface PGliteMemory {
  wasmBytes: number;
  heapUsed: number;
  heapTotal: number;
}

interface PGliteThread {
  waitReady: Promise<void>;
  execProtocolStream(message: Uint8Array, opts?: { throwOnError?: boolean }): Promise<BackendMessage[]>;
  /** Runs simple-protocol SQL directly (set-up and shutdown statements). */
  exec(sql: string): Promise<void>;
  memory(): Promise<PGliteMemory>;
  close(): Promise<void>;
}

const WORKER = fromRoot('src', 'store', 'engine', 'pglite-worker.mjs');

export function startPGliteThread(dataDir: string): PGliteThread {
  // Plain JavaScript (pglite-worker.mjs): it runs the same from the sources and from the bundle.
  const worker = new Worker(WORKER, { workerData: { dataDir } });
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let seq = 0;
  let failed: Error | undefined;

  worker.on('message', (m: Reply | { ready: true } | { fatal: string }) => {
    if ('id' in m) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      p?.resolve(m);
    }
  });
  const fail = (err: Error) => {
    failed = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the embedded database thread exited (code ${code})`)));

  const waitReady = new Promise<void>((resolve, reject) => {
    const onMessage = (m: { ready?: true; fatal?: string }) => {
      if (m.ready) resolve();
      else if (m.fatal) reject(new Error(m.fatal));
      else return;
      worker.off('message', onMessage);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });

  function call(op: 'exec-protocol' | 'exec' | 'memory' | 'close', payload?: Uint8Array | string): Promise<Reply> {
    if (failed) return Promise.reject(failed);
    const id = ++seq;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, payload });
    });
  }

  return {
    waitReady,
    async execProtocolStream(message) {
      await waitReady;
      const reply = await call('exec-protocol', message);
      if (!reply.ok) throw new Error(reply.error);
      const messages: BackendMessage[] = [];
      new Parser().parse(Buffer.from(reply.data!.buffer, reply.data!.byteOffset, reply.data!.byteLength), (msg) =>
        messages.push(msg),
      );
      return messages;
    },
    async exec(sql) {
      await waitReady;
      const reply = await call('exec', sql);
      if (!reply.ok) throw new Error(reply.error);
    },
    async memory() {
      await waitReady;
      const reply = await call('memory');
      if (!reply.ok) throw new Error(reply.error);
      return reply.memory!;
    },
    async close() {
      if (!failed) await call('close').catch(() => undefined);
      await worker.terminate();
    },
  };
}
