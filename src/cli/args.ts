// Reading one command's arguments with node:util parseArgs, in the CLI's own words: its error
// messages name the option the way a user typed it (`Unknown option --foo`, `--rpm needs a value`).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../ops/usage-error.ts';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface ReadArgs {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/** Positionals and `--name value` / `--name=value` options; every option not in `options` is an error. */
export function readArgs(argv: string[], options: OptionSpec): ReadArgs {
  try {
    const { positionals, values } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { positionals, values: values as ReadArgs['values'] };
  } catch (err) {
    throw new UsageError(usageMessage(err as Error & { code?: string }), { cause: err });
  }
}

function usageMessage(err: Error & { code?: string }): string {
  const name = /'(-[^' ]+)/.exec(err.message)?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown option ${name}`;
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/does not take an argument/.test(err.message)) return `${name} takes no value`;
    // parseArgs refuses a value starting with "-" after a space, which could be a forgotten one.
    if (/ambiguous/.test(err.message)) return `${name} needs a value (write ${name}=VALUE for one starting with "-")`;
    return `${name} needs a value`;
  }
  return err.message;
}

/** A whole number option within [min, max], or undefined when not given. */
export function intValue(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return Number(value);
}

/** The value of a string option (flags are booleans and never reach here). */
export function text(values: ReadArgs['values'], name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
