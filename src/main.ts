// Process entry: config -> app -> listen; graceful shutdown on SIGTERM/SIGINT.
import { buildApp } from './app.ts';
import { ConfigError, configWarnings, loadConfig } from './config/index.ts';
import { SHUTDOWN_DEADLINE_MS } from './config/http.ts';
import { DataDirBusyError } from './store/engine/data-dir-lock.ts';
import { MigrationError } from './store/engine/migrate.ts';
import { loadDemoData } from './jobs/demo-data.ts';
import { portInUse, portInUseMessage } from './runtime/port-probe.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  // Before the slow part (migrations, the demo load): a taken port is one line, at once.
  if (await portInUse(config.host, config.port)) {
    console.error(portInUseMessage(config.host, config.port));
    process.exit(1);
  }
  let built;
  try {
    built = await buildApp(config);
  } catch (err) {
    if (err instanceof MigrationError || err instanceof DataDirBusyError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const { app, ctx } = built;
  for (const warning of configWarnings(config)) app.log.warn(warning);
  if (config.demoData === 'auto' && (await ctx.repos.demoData.storeIsEmpty())) {
    console.log('The store is empty: loading the demo dataset (DEMO_DATA=off skips this)…');
    await loadDemoData(ctx, (m) => app.log.info(m));
  }
  try {
    await built.workers.start(config.syncSchedule ? ['watchlist-delivery', 'scheduler'] : ['watchlist-delivery']);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message); // e.g. a SYNC_CRON_<JOB> naming no job
    await built.close();
    process.exit(78);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    force.unref();
    try {
      // Closing stops the workers: the scheduler's runs in progress end before the store closes.
      await built.close();
      app.log.info({ signal }, 'shutdown complete');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // Taken while this process started (the probe above found it free).
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    console.error(portInUseMessage(config.host, config.port));
    await built.close();
    process.exit(1);
  }
  const port = (app.server.address() as { port: number }).port;
  ctx.store.lock?.update({ port, host: config.host });
  app.log.info({ address, engine: ctx.store.engine }, 'listening');
  console.log(
    `\nNordic Company Data API on ${config.baseUrl}  (docs: ${config.baseUrl}/docs)\n` +
      `Register a key:\n  curl -X POST ${config.baseUrl}/api/keys/register -H 'Content-Type: application/json' \\\n` +
      `    -d '{"projectName":"my-project","email":"you@example.com"}'\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
