// What `ncd sync` shows while a job runs: on a terminal a cli-progress bar with the share of the
// input read (bytes), rows, rows/s and an ETA; otherwise a line per 10 %. The ETA is remaining
// bytes at the rate seen while working, plus what is left of an upstream's rate-limit wait, so a
// pause for a 429 neither freezes nor shrinks it. Ctrl-C prints what was done and how to finish.
import cliProgress from 'cli-progress';
import type { SyncMeter } from '../net/sync-meter.ts';

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const int = (n: number) => Math.round(n).toLocaleString('en-US');

export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

interface ProgressState {
  totalBytes?: number;
  bytes: number;
  rows: number;
  elapsedMs: number;
  /** Time spent in upstream waits so far, and what is left of the current one. */
  waitedMs: number;
  waitLeftMs: number;
}

/** Rows per second and the ETA of a state (undefined when the input's size is unknown). */
export function estimate(s: ProgressState): { percent?: number; rowsPerSecond: number; etaMs?: number } {
  const workingMs = Math.max(1, s.elapsedMs - s.waitedMs);
  const rowsPerSecond = (s.rows * 1000) / Math.max(1, s.elapsedMs);
  if (!s.totalBytes) return { rowsPerSecond };
  // A decoded download can pass its Content-Length (Content-Encoding): never above 100 %.
  const percent = Math.min(100, (s.bytes / s.totalBytes) * 100);
  const bytesPerMs = s.bytes / workingMs;
  const left = Math.max(0, s.totalBytes - s.bytes);
  const etaMs = (bytesPerMs > 0 ? left / bytesPerMs : Infinity) + s.waitLeftMs;
  return { percent, rowsPerSecond, etaMs };
}

interface SyncProgress {
  meter: SyncMeter;
  /** A message of the job: above the bar on a terminal. */
  log(message: string): void;
  /** Stops the display; `interrupted` prints the summary and the re-run hint. */
  stop(interrupted?: { rerun: string }): void;
}

export function syncProgress(
  job: string,
  tty: boolean,
  out: NodeJS.WriteStream = process.stderr,
  now = () => Date.now(),
): SyncProgress {
  const started = now();
  const s: ProgressState = { bytes: 0, rows: 0, elapsedMs: 0, waitedMs: 0, waitLeftMs: 0 };
  let waitUntil = 0;
  let waitFrom = 0;
  let nextTenth = 1;
  const bars = tty
    ? new cliProgress.MultiBar(
        {
          stream: out,
          format: '{job} {bar} {pct} | {read} | {rows} rows | {rate} rows/s | ETA {etaText}',
          hideCursor: true,
          clearOnComplete: false,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const bar = bars?.create(100, 0);

  const refresh = () => {
    const t = now();
    s.elapsedMs = t - started;
    s.waitLeftMs = Math.max(0, waitUntil - t);
    const e = estimate(s);
    if (bar) {
      bar.update(e.percent ?? 0, {
        job,
        pct: e.percent === undefined ? '  ?' : `${e.percent.toFixed(0).padStart(3)}%`,
        read: s.totalBytes ? `${mb(s.bytes)} of ${mb(s.totalBytes)}` : mb(s.bytes),
        rows: int(s.rows),
        rate: int(e.rowsPerSecond),
        etaText: e.etaMs === undefined ? '?' : duration(e.etaMs) + (s.waitLeftMs > 0 ? ' (rate-limit wait)' : ''),
      });
      return;
    }
    // Not a terminal: a plain line at every 10 % of the input.
    while (e.percent !== undefined && e.percent >= nextTenth * 10 && nextTenth <= 10) {
      out.write(
        `${job}: ${nextTenth * 10}% (${mb(s.bytes)} of ${mb(s.totalBytes!)}), ${int(s.rows)} rows, ${int(e.rowsPerSecond)} rows/s, ETA ${duration(e.etaMs!)}\n`,
      );
      nextTenth++;
    }
  };

  const meter: SyncMeter = {
    opened(total) {
      // A job reading several inputs (a dump, then its sub-units) shows the latest one.
      s.totalBytes = total;
      s.bytes = 0;
      nextTenth = 1;
      refresh();
    },
    read(bytes) {
      s.bytes += bytes;
      refresh();
    },
    rows(count) {
      s.rows = count;
      refresh();
    },
    waiting(ms) {
      const t = now();
      if (waitUntil > waitFrom) s.waitedMs += Math.max(0, Math.min(t, waitUntil) - waitFrom);
      waitFrom = t;
      waitUntil = t + ms;
      refresh();
    },
  };

  return {
    meter,
    log(message) {
      if (bars) bars.log(`${message}\n`);
      else out.write(`${message}\n`);
    },
    stop(interrupted) {
      refresh();
      bars?.stop();
      const e = estimate(s);
      const share = e.percent === undefined ? '' : `, ${e.percent.toFixed(0)}% of the input read`;
      const summary = `${job}: ${int(s.rows)} rows in ${duration(s.elapsedMs)} (${int(e.rowsPerSecond)} rows/s)${share}`;
      if (!interrupted) {
        out.write(`${summary}\n`);
        return;
      }
      out.write(
        `\nInterrupted. ${summary}.\nRows of finished batches are stored. ` +
          `To finish, run it again (a re-run leaves the same store as one uninterrupted run):\n  ${interrupted.rerun}\n`,
      );
    },
  };
}
