// The one list of background workers a process runs beside its requests, each with start and
// stop. The server, the CLI and the tests start and stop this same list (only the parts they
// need); nothing else starts a timer loop of its own.
import type { Services } from './services.ts';
import type { AppContext } from './context.ts';
import { startScheduler, type Scheduler } from '../jobs/scheduler.ts';

export type WorkerName =
  'usage-flush' | 'record-cache' | 'event-stream' | 'watchlist-delivery' | 'crm-writeback' | 'scheduler';

export interface BackgroundWorker {
  name: WorkerName;
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Stopped before the server drains its requests: it would hold connections or start new work
   * (streams, deliveries, scheduled runs). The others serve the requests in flight, and stop after.
   */
  beforeDrain: boolean;
}

/** Every worker, in start order (stopped in reverse). */
export function backgroundWorkers(ctx: AppContext, services: Services): BackgroundWorker[] {
  let delivery: { stop(): void } | undefined;
  let writeback: { stop(): Promise<void> } | undefined;
  let scheduler: Scheduler | undefined;
  return [
    {
      // Usage of unmetered projects is counted in memory for up to a second (usage-counter.ts);
      // counting starts by itself, and the last counts are written at stop.
      name: 'usage-flush',
      beforeDrain: false,
      start: async () => undefined,
      stop: () =>
        services.keyAuth
          .flushUsage()
          .catch((err: Error) => ctx.log.warn({ err: err.message }, 'usage counts could not be written at shutdown')),
    },
    {
      // The record cache follows the store's changes while the app is open (record-cache.ts).
      name: 'record-cache',
      beforeDrain: false,
      start: () => services.recordCache.start(),
      stop: async () => services.recordCache.stop(),
    },
    {
      // The stream hub polls the event log only while a stream is open; stopping ends every
      // open stream, so a draining server is not held by them.
      name: 'event-stream',
      beforeDrain: true,
      start: async () => undefined,
      stop: async () => services.eventStream.close(),
    },
    {
      name: 'watchlist-delivery',
      beforeDrain: true,
      start: async () => {
        delivery = services.watchlistDelivery.start(ctx.config.monitoring.deliveryIntervalMs);
      },
      stop: async () => delivery?.stop(),
    },
    {
      // Enrich-on-write of CRM destinations: jobs the webhook routes queued (crm-writeback.ts);
      // polled each second, started at once for a job queued by this process.
      name: 'crm-writeback',
      beforeDrain: true,
      start: async () => {
        writeback = services.crmWriteback.start(1000);
      },
      stop: async () => writeback?.stop(),
    },
    {
      // Runs in progress end (within a grace period) before the store closes.
      name: 'scheduler',
      beforeDrain: true,
      start: async () => {
        scheduler = startScheduler(ctx);
      },
      stop: async () => scheduler?.stop(),
    },
  ];
}

/** Starts named workers of the list, and stops the started ones by phase, in reverse order. */
export function createWorkerSet(workers: BackgroundWorker[]) {
  const started: BackgroundWorker[] = [];
  const stop = async (filter: (w: BackgroundWorker) => boolean) => {
    for (const w of [...started].reverse()) {
      if (!filter(w)) continue;
      started.splice(started.indexOf(w), 1);
      await w.stop();
    }
  };
  return {
    async start(names: readonly WorkerName[]): Promise<void> {
      for (const w of workers) {
        if (!names.includes(w.name) || started.includes(w)) continue;
        await w.start();
        started.push(w);
      }
    },
    running: (): WorkerName[] => started.map((w) => w.name),
    /** Before the server drains its requests. */
    stopBeforeDrain: () => stop((w) => w.beforeDrain),
    stopAll: () => stop(() => true),
  };
}

export type WorkerSet = ReturnType<typeof createWorkerSet>;
