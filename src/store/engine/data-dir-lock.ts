// PGlite has no protection against two processes opening one data directory, and that
// corrupts it (electric-sql/pglite#323, #1106). The owner of DATA_DIR holds this pid lock file;
// it also tells the `ncd` command where the running server listens (operator hand-off).
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface LockInfo {
  pid: number;
  port?: number;
  host?: string;
  startedAt?: string;
  [key: string]: unknown;
}

export interface DataDirLock {
  file: string;
  update(info: Partial<LockInfo>): void;
  release(): void;
}

export class DataDirBusyError extends Error {
  constructor(readonly holder: LockInfo) {
    super(
      `DATA_DIR is in use by another process (pid ${holder.pid}); stop it or use DATABASE_URL for several processes`,
    );
  }
}

const LOCK_NAME = 'ncd.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock's content when a live process other than this one holds it. */
export function readLiveLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path.join(dataDir, LOCK_NAME), 'utf8')) as LockInfo;
    if (typeof info.pid === 'number' && info.pid !== process.pid && isAlive(info.pid)) return info;
  } catch {
    // no lock, or an unreadable one: nobody holds it
  }
  return undefined;
}

export function acquireDataDirLock(dataDir: string, extra: Record<string, unknown>): DataDirLock {
  const file = path.join(dataDir, LOCK_NAME);
  let info: LockInfo = { ...extra, pid: process.pid, startedAt: new Date().toISOString() };
  const write = (flag: 'wx' | 'w') => writeFileSync(file, JSON.stringify(info), { flag, mode: 0o600 });
  try {
    write('wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const holder = readLiveLock(dataDir);
    if (holder) throw new DataDirBusyError(holder);
    write('w'); // stale lock of a process that died
  }
  let released = false;
  return {
    file,
    update(more) {
      if (released) return;
      info = { ...info, ...more, pid: process.pid };
      write('w');
    },
    release() {
      if (released) return;
      released = true;
      try {
        const current = JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
        if (current.pid === process.pid) unlinkSync(file);
      } catch {
        // already gone
      }
    },
  };
}
