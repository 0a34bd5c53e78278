// Tiny argv reader for operator commands: positionals plus `--name value` options.
export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string>;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[], known: string[]): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (!known.includes(name)) throw new UsageError(`Unknown option --${name}`);
      const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options[name] = value;
    } else positionals.push(a);
  }
  return { positionals, options };
}

export function intOption(options: Record<string, string>, name: string, min: number, max: number): number | undefined {
  const v = options[name];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return Number(v);
}
