// Processes for the load benchmarks: the real server (bin/serve.mjs, as npm start runs it, NODE_ENV=production,
// LOG_LEVEL=warn) or the bare Fastify baseline as a child process on loopback, their RSS read
// from /proc, and the machine and load condition recorded with every result.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

/** A Node child process on loopback, resolved once `healthPath` answers 2xx (the product server, the floor). */
export function spawnChild(
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

// ---- CPU accounting: where the two cores went during a measured run ----

const CLOCK_TICKS = 100; // USER_HZ: `getconf CLK_TCK` on Linux x86_64

/** CPU seconds of one process (utime + stime) and of its reaped children (cutime + cstime); 0 once it is gone. */
function cpuSecondsOf(pid: number | 'self'): { own: number; children: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime field 14.
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return { own: (f[11] + f[12]) / CLOCK_TICKS, children: (f[13] + f[14]) / CLOCK_TICKS };
  } catch {
    return { own: 0, children: 0 };
  }
}

/**
 * CPU seconds of every PostgreSQL process on this machine, with what the postmaster has reaped
 * (a backend that exits during the run hands its time to the postmaster's cutime/cstime).
 */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const cpu = cpuSecondsOf(Number(entry));
      total += cpu.own + cpu.children;
    } catch {
      // gone between the listing and the read
    }
  }
  return total;
}

export interface CpuSplit {
  wallS: number;
  /** CPU seconds of each party during the run: the server (or sync) process, PostgreSQL, this process. */
  cpuS: { server: number; postgres: number; client: number; total: number };
  /** Share of the machine's cores the three used together (1 = every core busy all the time). */
  busyShare: number;
}

/**
 * Runs `run` and splits the CPU time it caused between the server process `serverPid` (or, with
 * `child`, the child processes this process waits for, such as a sync command), PostgreSQL and
 * this process (the load generator). On a 2-core machine all three share the same cores, so a
 * throughput target is out of reach when its CPU per unit times the rate exceeds the cores.
 */
export async function cpuSplit<T>(who: { serverPid?: number; child?: boolean }, run: () => Promise<T>) {
  // A sync command is a child this process waits for: its time shows in our cutime/cstime.
  const server = () =>
    (who.serverPid ? cpuSecondsOf(who.serverPid).own : 0) + (who.child ? cpuSecondsOf('self').children : 0);
  const client = () => cpuSecondsOf('self').own;
  const before = { server: server(), postgres: postgresCpuSeconds(), client: client(), t: performance.now() };
  const result = await run();
  const cpuS = {
    server: +(server() - before.server).toFixed(2),
    postgres: +(postgresCpuSeconds() - before.postgres).toFixed(2),
    client: +(client() - before.client).toFixed(2),
    total: 0,
  };
  cpuS.total = +(cpuS.server + cpuS.postgres + cpuS.client).toFixed(2);
  const wallS = +((performance.now() - before.t) / 1000).toFixed(2);
  const split: CpuSplit = { wallS, cpuS, busyShare: +(cpuS.total / wallS / os.cpus().length).toFixed(2) };
  return { result, split };
}

/**
 * The split per unit of work (a page, a request, a company) in CPU milliseconds, and the most
 * units a second the machine's cores allow at that cost if all three parties overlapped perfectly.
 */
export function perUnit(split: Pick<CpuSplit, 'cpuS'>, units: number) {
  const ms = (s: number) => +((s * 1000) / units).toFixed(3);
  return {
    units,
    cpuMs: { server: ms(split.cpuS.server), postgres: ms(split.cpuS.postgres), client: ms(split.cpuS.client) },
    totalCpuMs: ms(split.cpuS.total),
    ceilingPerS: Math.round((os.cpus().length * units) / split.cpuS.total),
  };
}
