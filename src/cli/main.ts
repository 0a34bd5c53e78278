// The `ncd` command. In server mode (DATABASE_URL) it opens the database itself. In embedded
// mode, when a running server holds the DATA_DIR lock, the command is handed to that server
// over its operator endpoint and its progress is shown; otherwise it opens DATA_DIR itself.
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { UsageError } from '../ops/argv.ts';
import { operatorToken } from '../ops/operator-token.ts';
import { readLiveLock, type LockInfo } from '../store/data-dir-lock.ts';

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

const print = (o: unknown) => console.log(typeof o === 'string' ? o : JSON.stringify(o, null, 2));

/** Paths given to the CLI are relative to where it runs, not to the server's directory. */
function absolutePaths(argv: string[]): string[] {
  return argv.map((a, i) =>
    argv[i - 1] === '--file' ? path.resolve(a) : a.startsWith('--file=') ? `--file=${path.resolve(a.slice(7))}` : a,
  );
}

async function handOff(config: Config, lock: LockInfo, argv: string[]): Promise<number> {
  const host = !lock.host || lock.host === '0.0.0.0' || lock.host === '::' ? '127.0.0.1' : lock.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${lock.port}/internal/operator`;
  console.error(`A server (pid ${lock.pid}) holds ${config.dataDir}; running the command there.`);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-token': operatorToken(config.secretKey) },
    body: JSON.stringify({ argv }),
  });
  if (!res.ok || !res.body) {
    console.error(`The server refused the command (HTTP ${res.status}).`);
    return 1;
  }
  let code = 1;
  let buffered = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buffered.slice(0, nl)) as { type: string; message?: string; result?: unknown };
      buffered = buffered.slice(nl + 1);
      if (msg.type === 'progress') console.error(msg.message);
      else if (msg.type === 'result') {
        print(msg.result);
        code = 0;
      } else if (msg.type === 'error') console.error(msg.message);
    }
  }
  return code;
}

async function runLocally(config: Config, argv: string[]): Promise<number> {
  const { buildContext, closeContext, createLogger, createServices, runOperatorCommand } = await serverModules();
  const ctx = await buildContext(config, {
    logger: createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel),
  });
  try {
    const result = await runOperatorCommand(ctx, createServices(ctx), argv, (m) => console.error(m));
    print(result);
    // Operators (and the bounded-memory tests) read this: ingest must not grow with the file.
    if (argv[0] === 'sync') console.error(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
    return 0;
  } finally {
    await closeContext(ctx);
  }
}

export async function cli(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    print((await serverModules()).USAGE);
    return argv.length === 0 ? 1 : 0;
  }
  // A client of a running server's API: it must not load server config or open the store.
  if (argv[0] === 'enrich') return (await import('./enrich/command.ts')).enrichCommand(argv.slice(1));
  if (argv[0] === 'serve') {
    await import('../main.ts');
    return -1; // keeps running
  }
  const config = loadConfig();
  const args = absolutePaths(argv);
  if (!config.databaseUrl) {
    const lock = readLiveLock(config.dataDir);
    if (lock?.port) return handOff(config, lock, args);
  }
  return runLocally(config, args);
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
