// The `ncd` command. Arguments become a typed command (commands.ts) before anything opens. In
// server mode (DATABASE_URL) it opens the database itself. In embedded mode, when a running
// server holds the DATA_DIR lock, the command is handed to that server over its operator
// endpoint and its progress is shown; otherwise it opens DATA_DIR itself.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config/index.ts';
import type { OperatorCommand } from '../ops/command.ts';
import { UsageError } from '../ops/usage-error.ts';
import { readLiveLock } from '../store/engine/data-dir-lock.ts';
import { commandHelp, parseCommand, UnknownCommandError, usage } from './commands.ts';
import { handOff } from './hand-off.ts';
import { print, takeJsonFlag } from './output.ts';
import { syncProgress } from './sync-progress.ts';
import { withSyncMeter } from '../net/sync-meter.ts';

// The server's modules load only for the commands that need them: `ncd enrich` is a plain API
// client and starts in a fraction of the time without them.
const serverModules = async () => {
  const [app, logger, commands, services, workers] = await Promise.all([
    import('../runtime/build-context.ts'),
    import('../logger.ts'),
    import('../ops/commands.ts'),
    import('../runtime/services.ts'),
    import('../runtime/workers.ts'),
  ]);
  return { ...app, ...logger, ...commands, ...services, ...workers };
};

/** The job names `ncd sync` takes, as the help lists them. */
async function sources(): Promise<string[]> {
  return (await import('../jobs/runner.ts')).jobNames();
}

/** Which store a command opened, for the operator to see (no credentials: host, port, database). */
function storeName(config: Config): string {
  if (!config.databaseUrl) return `embedded database in ${config.dataDir}`;
  try {
    const url = new URL(config.databaseUrl);
    return `PostgreSQL ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/**
 * Key and job commands act on an existing store: in embedded mode they refuse a DATA_DIR that
 * holds no database rather than create an empty one (a typo in DATA_DIR, or run from the wrong
 * directory). Read before loadConfig, which would write a new secret.key there.
 */
function missingStore(command: OperatorCommand): string | undefined {
  if (command.command === 'sync' || process.env.DATABASE_URL) return undefined;
  const dataDir = path.resolve(process.env.DATA_DIR || './data');
  if (existsSync(path.join(dataDir, 'pglite'))) return undefined;
  return `No database in ${dataDir} (DATA_DIR). Run ncd from the server's directory, set DATA_DIR to its data directory, or set DATABASE_URL; npm start creates a new one.`;
}

/** The command line again, for the re-run hint after Ctrl-C. */
const commandLine = (argv: string[]) =>
  ['ncd', ...argv].map((a) => (/^[\w./:=@-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');

/**
 * A sync (or `jobs run`) shows its progress (sync-progress.ts) and, on Ctrl-C, a summary and how
 * to finish; other commands just run.
 */
async function withProgress<T>(
  command: OperatorCommand,
  argv: string[],
  run: (log: (m: string) => void) => Promise<T>,
): Promise<T> {
  if (command.command !== 'sync' && command.command !== 'jobs run') return run((m) => console.error(m));
  const job = command.command === 'sync' ? command.source : command.name;
  const progress = syncProgress(job, process.stderr.isTTY === true);
  const onInterrupt = () => {
    progress.stop({ rerun: commandLine(argv) });
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  try {
    const result = await withSyncMeter(progress.meter, () => run(progress.log));
    progress.stop();
    return result;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

async function runLocally(config: Config, command: OperatorCommand, argv: string[]): Promise<number> {
  const {
    buildContext,
    closeContext,
    createLogger,
    createServices,
    runOperatorCommand,
    backgroundWorkers,
    createWorkerSet,
  } = await serverModules();
  const ctx = await buildContext(config, {
    logger: createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel),
  });
  console.error(`store: ${storeName(config)}`);
  const services = createServices(ctx);
  // A command counts usage like a server does (key commands read it), so it stops the same worker.
  const workers = createWorkerSet(backgroundWorkers(ctx, services));
  try {
    await workers.start(['usage-flush']);
    const result = await withProgress(command, argv, (log) => runOperatorCommand(ctx, services, command, log));
    print(result);
    // Operators (and the bounded-memory tests) read this: ingest must not grow with the file.
    if (command.command === 'sync') console.error(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
    return 0;
  } finally {
    await workers.stopAll();
    await closeContext(ctx);
  }
}

export async function cli(given: string[]): Promise<number> {
  // `--json` belongs to the operator commands; enrich has its own options.
  const argv = given[0] === 'enrich' ? given : takeJsonFlag(given);
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    if (argv[1] === 'enrich') return (await import('./enrich/command.ts')).enrichCommand(['--help']);
    const names = await sources();
    print(commandHelp(argv.slice(1), names) ?? usage(names));
    return argv.length === 0 ? 1 : 0;
  }
  // A client of a running server's API: it must not load server config or open the store.
  if (argv[0] === 'enrich') return (await import('./enrich/command.ts')).enrichCommand(argv.slice(1));
  // Offline: checks a pack file against given public keys; opens no store.
  if (argv[0] === 'evidence')
    return (await import('./evidence-verify.ts')).evidenceCommand(argv.slice(1), given.includes('--json'));
  if (argv[0] === 'serve' && (argv.includes('--help') || argv.includes('-h'))) {
    print(commandHelp(argv, []));
    return 0;
  }
  if (argv[0] === 'serve') {
    await import('../main.ts');
    return -1; // keeps running
  }
  let command: OperatorCommand | 'help';
  try {
    command = parseCommand(argv);
  } catch (err) {
    if (!(err instanceof UnknownCommandError)) throw err;
    console.error(`${err.message}\n\n${usage(await sources())}`);
    return 1;
  }
  if (command === 'help') {
    print(commandHelp(argv, await sources()));
    return 0;
  }
  if (command.command === 'sync' || command.command === 'jobs run') {
    // Checked before anything opens, so a typo creates no data directory.
    const names = await sources();
    const name = command.command === 'sync' ? command.source : command.name;
    if (!names.includes(name)) {
      console.error(`Unknown ${command.command === 'sync' ? 'source' : 'job'} "${name}" (known: ${names.join(', ')})`);
      return 1;
    }
  }
  const missing = missingStore(command);
  if (missing) {
    console.error(missing);
    return 1;
  }
  const config = loadConfig();
  if (!config.databaseUrl) {
    const lock = readLiveLock(config.dataDir);
    if (lock?.port) return handOff(config, lock, command);
  }
  return runLocally(config, command, argv);
}

cli(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err) => {
    if (err instanceof UsageError || err instanceof ConfigError) console.error(err.message);
    else console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
