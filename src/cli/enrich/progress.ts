// Progress on stderr: one line rewritten in place on a terminal; otherwise (a log, CI) a line
// at every tenth of the way, so logs stay short.
export interface Counts {
  found: number;
  notFound: number;
  empty: number;
  invalid: number;
  failed: number;
}

interface Progress {
  update(done: number, counts: Counts): void;
  note(message: string): void;
  finish(): void;
}

const WIDTH = 24;

export function createProgress(total: number, stream: NodeJS.WriteStream, now: () => number = Date.now): Progress {
  const tty = Boolean(stream.isTTY);
  const started = now();
  let lastTenth = -1;
  let drawn = false;
  const line = (done: number, c: Counts) => {
    const ratio = total ? done / total : 1;
    const pct = Math.floor(ratio * 100);
    const elapsed = now() - started;
    const eta = done > 0 && done < total ? ` · ${formatDuration((elapsed / done) * (total - done))} left` : '';
    const bar = tty ? `[${'#'.repeat(Math.round(ratio * WIDTH)).padEnd(WIDTH, '.')}] ` : '';
    return `${bar}${pct}% ${done}/${total} rows · found ${c.found} · not found ${c.notFound} · empty ${c.empty} · invalid ${c.invalid} · failed ${c.failed}${eta}`;
  };
  return {
    update(done, counts) {
      if (tty) {
        stream.write(`\r\x1b[2K${line(done, counts)}`);
        drawn = true;
        return;
      }
      const tenth = total ? Math.floor((done / total) * 10) : 10;
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`${line(done, counts)}\n`);
      }
    },
    note(message) {
      stream.write(tty && drawn ? `\r\x1b[2K${message}\n` : `${message}\n`);
    },
    finish() {
      if (tty && drawn) stream.write('\n');
    },
  };
}

function formatDuration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}
