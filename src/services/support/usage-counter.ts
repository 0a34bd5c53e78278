// Usage of projects without a daily or monthly quota (enterprise, internal and keys whose quotas
// were lifted) is counted in memory and written once per project and day every
// USAGE_FLUSH_MS. Nothing is refused for them, so they need no exact check, and one write per
// request would make every request of a key wait for the same row lock and the commit's disk
// flush (the lookup benchmark's limit before this; BENCHMARKS.md). Projects with a quota keep
// the exact per-request statement (`UsageRepository.consume`).
//
// Reads of a project's usage in this process flush first, so they are exact here; another
// process sees the counts within USAGE_FLUSH_MS. A process killed without a graceful stop loses
// at most that last interval of counts (never a refusal).
import type { Logger } from 'pino';
import type { UsageRepository } from '../../store/access/usage.ts';

const USAGE_FLUSH_MS = 1000;

interface Pending {
  projectId: number;
  day: string;
  monthStart: string;
  n: number;
}

export function createUsageCounter(repo: UsageRepository, log: Pick<Logger, 'warn'>) {
  let pending = new Map<string, Pending>();
  let timer: NodeJS.Timeout | undefined;
  // Flushes run one after another, so a read that flushes waits for one already under way.
  let chain: Promise<void> = Promise.resolve();

  async function writeAll() {
    const batch = [...pending.values()];
    pending = new Map();
    let failed: unknown;
    for (const p of batch) {
      try {
        await repo.add(p.projectId, p.day, p.monthStart, p.n);
      } catch (err) {
        // Kept for the next flush: a database outage delays the counts, it does not drop them.
        count(p.projectId, p.day, p.monthStart, p.n);
        failed = err;
      }
    }
    if (failed) throw failed;
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    chain = chain.catch(() => undefined).then(writeAll);
    return chain;
  }

  function count(projectId: number, day: string, monthStart: string, n = 1) {
    const key = `${projectId}:${day}`;
    const p = pending.get(key);
    if (p) p.n += n;
    else pending.set(key, { projectId, day, monthStart, n });
    if (!timer) {
      timer = setTimeout(() => {
        timer = undefined;
        flush().catch((err: Error) => log.warn({ err: err.message }, 'usage counts could not be written; retrying'));
      }, USAGE_FLUSH_MS);
      timer.unref();
    }
  }

  return {
    count,
    /** Writes every pending count (before a usage read, and when the server stops). */
    flush,
  };
}
