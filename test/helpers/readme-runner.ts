// Runs README examples as processes: a shell command in bash (curl printing the status last),
// `npm start` until it listens, for test/long/readme-examples.test.ts.
import { spawn } from 'node:child_process';
import { readLiveLock } from '../../src/store/engine/data-dir-lock.ts';
import { ROOT } from './env.ts';
import { collectOutput, type Ran } from './process.ts';

export type { Ran };

export function bash(script: string, env: Record<string, string>, cwd = ROOT, timeoutMs = 120_000): Promise<Ran> {
  const proc = spawn('bash', ['--norc', '--noprofile', '-c', script], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectOutput(proc, timeoutMs);
}

/** Runs a curl command (curl prints the status last); a stream is cut after `maxTime` seconds. */
export async function curl(command: string, env: Record<string, string>, maxTime = 30, cwd?: string) {
  const wrapper = `curl() { command curl -sS --max-time ${maxTime} -w '\\n%{http_code}' "$@"; }`;
  const r = await bash(`${wrapper}\n${command}`, env, cwd);
  const nl = r.stdout.lastIndexOf('\n');
  return { status: Number(r.stdout.slice(nl + 1)), body: r.stdout.slice(0, nl), code: r.code };
}

export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `npm start` in the checkout, as the quick start shows it; resolves once it listens. */
export function npmStart(env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const proc = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  let out = '';
  return new Promise((resolve, reject) => {
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const listening = /"msg":"listening"/.test(out) && /"address":"(http:[^"]+)"/.exec(out);
      if (!listening) return;
      resolve({
        url: listening[1],
        async stop() {
          // npm and the server it started are one process group; npm may exit before the server has.
          process.kill(-proc.pid!, 'SIGTERM');
          await exited;
          const dataDir = env.DATABASE_URL ? undefined : env.DATA_DIR;
          for (let i = 0; i < 600; i++) {
            const up = await fetch(listening[1]).then(
              () => true,
              () => false,
            );
            if (!up && !(dataDir && readLiveLock(dataDir))) return;
            await new Promise((r) => setTimeout(r, 100));
          }
          throw new Error('the server of npm start did not stop in 60 s');
        },
      });
    });
    proc.on('exit', (code) =>
      reject(new Error(`npm start exited with ${code} before listening:\n${out.slice(-2000)}`)),
    );
  });
}
