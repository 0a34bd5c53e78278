// Processes for the load benchmarks: the real server (bin/serve.mjs, as npm start runs it, NODE_ENV=production,
// LOG_LEVEL=warn) or the bare Fastify baseline as a child process on loopback, their RSS read
// from /proc, and the machine and load condition recorded with every result.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Current and peak resident set size of a process, in MB (Linux /proc). */
export function rssOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

export interface Child {
  url: string;
  pid: number;
  proc: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

const BASE_ENV = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC' });

async function waitHealthy(url: string, proc: ChildProcess, out: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`process exited with ${proc.exitCode}:\n${out()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  proc.kill('SIGKILL');
  throw new Error(`not healthy after ${timeoutMs} ms:\n${out()}`);
}

function spawnChild(
  args: string[],
  env: Record<string, string>,
  healthPath: string,
  port: number,
  timeoutMs: number,
): Promise<Child> {
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...BASE_ENV(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (c: Buffer) => {
    out = (out + c.toString()).slice(-20_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const child: Child = {
    url,
    pid: proc.pid!,
    proc,
    output: () => out,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(t);
    },
  };
  return waitHealthy(url + healthPath, proc, () => out, timeoutMs).then(() => child);
}

/** The API server as deployed (`npm start`: bin/serve.mjs, the bundled server), production, logging at warn. */
export async function startServer(storeEnv: Record<string, string>, timeoutMs = 180_000): Promise<Child> {
  const port = await freePort();
  // BENCH_CPU_PROF=<dir>: write a V8 CPU profile of the server there on exit.
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // The bench's own settings of the server's runtime, passed on when given:
  // BENCH_SERVER_NODE_OPTIONS, V8 / Node flags for the server only (e.g. a GC setting under test);
  // NODE_HEAP=throughput, V8's default heap sizing (bin/serve.mjs).
  const runtime = {
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    ...(process.env.NODE_HEAP ? { NODE_HEAP: process.env.NODE_HEAP } : {}),
  };
  return spawnChild(
    [...prof, path.join(ROOT, 'bin/serve.mjs')],
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_DATA: 'off',
      SYNC_SCHEDULE: 'off',
      ...runtime,
      ...storeEnv,
    },
    '/api/health',
    port,
    timeoutMs,
  );
}

/** A bare Fastify route serving `bodyFile` (a JSON record) from memory: the framework's ceiling. */
export async function startBare(bodyFile: string): Promise<Child> {
  const port = await freePort();
  return spawnChild(
    ['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts'), bodyFile],
    { NODE_ENV: 'production', PORT: String(port) },
    '/health',
    port,
    30_000,
  );
}

/** Samples a process's RSS every `everyMs` until stopped. */
export function sampleRss(pid: number, everyMs = 1000) {
  const t0 = Date.now();
  const samples: { s: number; rssMb: number }[] = [];
  const take = () => {
    try {
      samples.push({ s: Math.round((Date.now() - t0) / 1000), rssMb: rssOf(pid).rssMb });
    } catch {
      // process gone
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadavg: os.loadavg().map((x) => +x.toFixed(2)),
  };
}
