// Runs the real server or CLI as a separate process (as a user would), for tests that need
// several processes, signals or exit codes.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './env.ts';

export interface ServerProcess {
  url: string;
  proc: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test' };
  return { ...clean, ...env };
}

/**
 * The server from its sources through tsx; `entry` runs another way in, e.g. `['bin/serve.mjs']`
 * (the bundled server that `npm start` runs).
 */
export function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
  entry = ['--import', 'tsx', path.join(ROOT, 'src/main.ts')],
): Promise<ServerProcess> {
  const proc = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: baseEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SYNC_SCHEDULE: 'off', DEMO_DATA: 'off', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const msg = JSON.parse(line) as { msg?: string; address?: string };
          if (msg.msg === 'listening' && msg.address) {
            clearTimeout(timer);
            proc.stdout!.off('data', onData);
            proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
            resolve({
              url: msg.address.replace('0.0.0.0', '127.0.0.1'),
              proc,
              output: () => out,
              async stop(signal = 'SIGTERM') {
                if (proc.exitCode !== null) return proc.exitCode;
                proc.kill(signal);
                return exited;
              },
            });
            return;
          }
        } catch {
          // a partial line; wait for more
        }
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${out}`));
    });
  });
}

/** A spawned process's exit code and output once it ends (killed after `timeoutMs`). */
export function collectOutput(proc: ChildProcess, timeoutMs = 120_000): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}${err.message}` });
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion and returns its exit code and output. */
export function runProcess(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<Ran> {
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: baseEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectOutput(proc, timeoutMs);
}

export const CLI = path.join(ROOT, 'src/cli/main.ts');
export const MAIN = path.join(ROOT, 'src/main.ts');
