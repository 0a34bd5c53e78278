// The `ncd` command. Arguments become a typed command (commands.ts) before anything opens. In
// server mode (DATABASE_URL) it opens the database itself. In embedded mode, when a running
// server holds the DATA_DIR lock, the command is handed to that server over its operator
// endpoint and its progress is shown; otherwise it opens DATA_DIR itself.
import { ConfigError, loadConfig, type Config } from '../config.ts';
import type { OperatorCommand } from '../ops/command.ts';
import { UsageError } from '../ops/usage-error.ts';
import { readLiveLock } from '../store/data-dir-lock.ts';
import { commandHelp, parseCommand, UnknownCommandError, usage } from './commands.ts';
import { handOff } from './hand-off.ts';
import { print } from './output.ts';

// The server's modules load only for the commands that need them: `ncd enrich` is a plain API
// client and starts in a fraction of the time without them.
const serverModules = async () => {
  const [app, logger, commands, services] = await Promise.all([
    import('../app.ts'),
    import('../logger.ts'),
    import('../ops/commands.ts'),
    import('../services/index.ts'),
  ]);
  return { ...app, ...logger, ...commands, ...services };
};

/** The job names `ncd sync` takes, as the help lists them (registered by importing every job). */
async function sources(): Promise<string[]> {
  await import('../jobs/all.ts');
  return Object.keys((await import('../jobs/registry.ts')).JOBS);
}

async function runLocally(config: Config, command: OperatorCommand): Promise<number> {
  const { buildContext, closeContext, createLogger, createServices, runOperatorCommand } = await serverModules();
  const ctx = await buildContext(config, {
    logger: createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel),
  });
  try {
    const result = await runOperatorCommand(ctx, createServices(ctx), command, (m) => console.error(m));
    print(result);
    // Operators (and the bounded-memory tests) read this: ingest must not grow with the file.
    if (command.command === 'sync') console.error(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
    return 0;
  } finally {
    await closeContext(ctx);
  }
}

export async function cli(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    if (argv[1] === 'enrich') return (await import('./enrich/command.ts')).enrichCommand(['--help']);
    const names = await sources();
    print(commandHelp(argv.slice(1), names) ?? usage(names));
    return argv.length === 0 ? 1 : 0;
  }
  // A client of a running server's API: it must not load server config or open the store.
  if (argv[0] === 'enrich') return (await import('./enrich/command.ts')).enrichCommand(argv.slice(1));
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
  const config = loadConfig();
  if (!config.databaseUrl) {
    const lock = readLiveLock(config.dataDir);
    if (lock?.port) return handOff(config, lock, command);
  }
  return runLocally(config, command);
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
