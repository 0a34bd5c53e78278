// The operator commands of `ncd` (sync, jobs, keys): their syntax, their `--help`, and how their
// arguments become the typed command of src/ops/command.ts that runs here or in a running server.
import path from 'node:path';
import type { OperatorCommand } from '../ops/command.ts';
import { UsageError } from '../ops/usage-error.ts';
import { intValue, readArgs, text, type OptionSpec, type ReadArgs } from './args.ts';

/** argv names no command: the CLI prints the list of commands after the message. */
export class UnknownCommandError extends UsageError {}

interface CommandSpec {
  /** The words that name it, as typed: `keys set-tier`. */
  name: string;
  help: string;
  options: OptionSpec;
  build(args: ReadArgs): OperatorCommand;
}

const value = { type: 'string' } as const;

/** A per-key limit: "default" = back to the tier's value (null), 0 = unlimited. */
function limit(args: ReadArgs, name: string, min: number, max: number): number | null | undefined {
  const v = text(args.values, name);
  return v === 'default' ? null : intValue(name, v, min, max);
}

/** --since: a calendar date (YYYY-MM-DD) that exists. */
function sinceDate(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    throw new UsageError('--since takes a date, YYYY-MM-DD');
  return v;
}

const SYNC: CommandSpec = {
  name: 'sync',
  help: `Usage: ncd sync <source> [--file PATH | --url URL] [--limit N] [--year YYYY] [--list NAME] [--country XX] [--since DATE]

Runs one sync job now, under the same lease as the scheduler, and prints its result.

  --file PATH   load this file instead of downloading (a path from where ncd runs)
  --url URL     download from this URL instead of the source's default
  --limit N     at most N records, for the jobs that take a limit (1 to 100000000)
  --year YYYY   shareholders: the register year (default: from the file name)
  --list NAME   sanctions: the list a file loads into (default: from the file, URL or format)
  --country XX  statistics: one bureau (NO, SE, FI or DK; default all four)
  --since DATE  procurement: notices published from this date (YYYY-MM-DD; default: since the last run)`,
  options: { file: value, url: value, limit: value, year: value, list: value, country: value, since: value },
  build({ positionals, values }) {
    if (positionals.length === 0) throw new UsageError('sync takes a source');
    if (positionals.length > 1) throw new UsageError(`Unexpected argument ${positionals[1]}`);
    const file = text(values, 'file');
    return {
      command: 'sync',
      source: positionals[0],
      // Paths are relative to where the CLI runs, not to a server's directory.
      file: file === undefined ? undefined : path.resolve(file),
      url: text(values, 'url'),
      limit: intValue('limit', text(values, 'limit'), 1, 100_000_000),
      year: intValue('year', text(values, 'year'), 2000, 2100),
      list: text(values, 'list'),
      country: text(values, 'country')?.toUpperCase(),
      since: sinceDate(text(values, 'since')),
    };
  },
};

const JOBS_LIST: CommandSpec = {
  name: 'jobs',
  help: `Usage: ncd jobs

Lists every job: its source, its schedule here, whether the scheduler runs it, its last run,
its next run and the process running it now (if any). To run one now: ncd jobs run <name>.`,
  options: {},
  build({ positionals }) {
    if (positionals.length) throw new UsageError(`Unexpected argument ${positionals[0]}`);
    return { command: 'jobs' };
  },
};

const JOBS_RUN: CommandSpec = {
  name: 'jobs run',
  help: `Usage: ncd jobs run <name>

Runs one job now without waiting for its schedule, under the same lease as the scheduler (refused
while it runs elsewhere), with its default input. ncd jobs lists the names.`,
  options: {},
  build({ positionals }) {
    if (positionals.length !== 1) throw new UsageError('jobs run takes <name>');
    return { command: 'jobs run', name: positionals[0] };
  },
};

const SET_TIER: CommandSpec = {
  name: 'keys set-tier',
  help: `Usage: ncd keys set-tier <keyPrefix> <tier>

Moves the project of an API key to a tier: free | pro | enterprise | internal, or a tier defined
in the database. Prints the key's tier and limits.`,
  options: {},
  build({ positionals }) {
    if (positionals.length !== 2) throw new UsageError('keys set-tier takes <keyPrefix> <tier>');
    return { command: 'keys set-tier', keyPrefix: positionals[0], tier: positionals[1] };
  },
};

const SET_LIMITS: CommandSpec = {
  name: 'keys set-limits',
  help: `Usage: ncd keys set-limits <keyPrefix> [--rpm N] [--daily N] [--monthly N] [--page-size N]

Overrides the tier's limits for the project of an API key; options not given stay as they are.
0 = unlimited (not for --page-size), "default" = back to the tier's value.

  --rpm N         requests per minute (0 to 1000000)
  --daily N       requests per day (0 to 1000000000)
  --monthly N     requests per month (0 to 1000000000)
  --page-size N   largest page a list returns (1 to 100)`,
  options: { rpm: value, daily: value, monthly: value, 'page-size': value },
  build(args) {
    if (args.positionals.length !== 1) throw new UsageError('keys set-limits takes <keyPrefix> and options');
    return {
      command: 'keys set-limits',
      keyPrefix: args.positionals[0],
      rpm: limit(args, 'rpm', 0, 1_000_000),
      daily: limit(args, 'daily', 0, 1_000_000_000),
      monthly: limit(args, 'monthly', 0, 1_000_000_000),
      pageSize: limit(args, 'page-size', 1, 100),
    };
  },
};

const LIST_KEYS: CommandSpec = {
  name: 'keys list',
  help: `Usage: ncd keys list [--project NAME] [--all]

Lists the active API keys, newest first: prefix, project, tier, created, requests counted. Raw
keys are never stored, so they cannot be shown.

  --project NAME   only the keys of this project (name as registered, any case)
  --all            deactivated and rotated-away keys too`,
  options: { project: value, all: { type: 'boolean' } },
  build({ positionals, values }) {
    if (positionals.length) throw new UsageError(`Unexpected argument ${positionals[0]}`);
    return { command: 'keys list', project: text(values, 'project'), all: values.all === true ? true : undefined };
  },
};

const DEACTIVATE_KEY: CommandSpec = {
  name: 'keys deactivate',
  help: `Usage: ncd keys deactivate <keyPrefix>

Deactivates one API key (a leaked key, or an unused registration nobody holds): it answers 401
at once on this process and within a second on every other. The project, its usage and its
destinations stay; its owner can register the name again only while it was never used.`,
  options: {},
  build({ positionals }) {
    if (positionals.length !== 1) throw new UsageError('keys deactivate takes <keyPrefix>');
    return { command: 'keys deactivate', keyPrefix: positionals[0] };
  },
};

const SPECS = [SYNC, JOBS_LIST, JOBS_RUN, SET_TIER, SET_LIMITS, LIST_KEYS, DEACTIVATE_KEY];

const KEYS_HELP = `Usage: ncd keys <command>

  ncd keys set-tier <keyPrefix> <tier>
  ncd keys set-limits <keyPrefix> [--rpm N] [--daily N] [--monthly N] [--page-size N]
  ncd keys list [--project NAME] [--all]
  ncd keys deactivate <keyPrefix>

ncd keys <command> --help tells more.`;

const SERVE_HELP = `Usage: ncd serve

Starts the API (the same as npm start), configured by environment variables (README,
"Configuration"); it runs until stopped with SIGINT or SIGTERM.`;

export function usage(sources: string[]): string {
  return `Usage:
  ncd serve                                   start the API (same as npm start)
  ncd sync <source> [--file PATH | --url URL] [--limit N] [--year YYYY] [--list NAME]
  ncd enrich <input.csv> --column NAME --out FILE
                                              add company data to a CSV through a server's API
                                              (ncd enrich --help)
  ncd jobs                                    every job: schedule, last run, next run, holder
  ncd jobs run <name>                         run one job now (waits for no schedule; same lease)
  ncd keys set-tier <keyPrefix> <tier>        free | pro | enterprise | internal
  ncd keys set-limits <keyPrefix> [--rpm N] [--daily N] [--monthly N] [--page-size N]
                                              0 = unlimited, "default" = back to the tier's value
  ncd keys list [--project NAME] [--all]      keys: prefix, project, tier, state, requests
  ncd keys deactivate <keyPrefix>             a key stops working (its project stays)

On a terminal results are tables; --json prints JSON (as when stdout is a pipe or file).
ncd <command> --help tells more about one command.${sourcesLine(sources)}`;
}

/** The job names for the help, or nothing when none are known (no empty "sources:" line). */
const sourcesLine = (sources: string[]) => (sources.length ? `\nsources: ${sources.join(', ')}` : '');

/** The command that argv names (longest match: `jobs run` before `jobs`), and the rest of argv. */
function find(argv: string[]): { spec?: CommandSpec; rest: string[] } {
  const two = SPECS.find((s) => s.name === `${argv[0]} ${argv[1]}`);
  if (two) return { spec: two, rest: argv.slice(2) };
  return { spec: SPECS.find((s) => s.name === argv[0]), rest: argv.slice(1) };
}

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/**
 * The help that `ncd help <words>` or `ncd <words> --help` asks for: one command's, the keys
 * group's, or undefined (the caller then prints the list of all commands).
 */
export function commandHelp(words: string[], sources: string[]): string | undefined {
  const { spec } = find(words);
  if (spec) return spec === SYNC ? `${spec.help}\n${sourcesLine(sources)}` : spec.help;
  if (words[0] === 'serve') return SERVE_HELP;
  return words[0] === 'keys' ? KEYS_HELP : undefined;
}

/** Parses argv into a typed command, or 'help' when it asks for a command's help. */
export function parseCommand(argv: string[]): OperatorCommand | 'help' {
  const { spec, rest } = find(argv);
  if (!spec) {
    if (argv[0] === 'keys' && wantsHelp(argv.slice(1))) return 'help';
    if (argv[0] === 'keys' && argv.length === 1) throw new UsageError(KEYS_HELP);
    throw new UnknownCommandError(`Unknown command "${argv[0] === 'keys' ? `keys ${argv[1]}` : argv[0]}"`);
  }
  if (wantsHelp(rest)) return 'help';
  return spec.build(readArgs(rest, spec.options));
}
