// Reading one environment variable: the typed readers every section uses, and the error that
// names the variable. A bad value stops start-up; secrets are never echoed.
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
  }
}

const SECRET_VARIABLES = new Set([
  'SECRET_KEY',
  'SYNC_SECRET',
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'REDIS_URL',
  'SMTP_URL',
  'EVIDENCE_SIGNING_KEY',
]);

export function shown(name: string, value: string): string {
  return SECRET_VARIABLES.has(name) ? '' : ` (got "${value.slice(0, 80)}")`;
}

export function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}${shown(name, raw)}`);
  }
  return Number(raw);
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  const v = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `must be true or false${shown(name, raw)}`);
}

export function url(env: Env, name: string, fallback: string | undefined, schemes: string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL${shown(name, raw)}`);
  }
  if (!schemes.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(name, `must use ${schemes.join(' or ')}${shown(name, raw)}`);
  }
  return raw.replace(/\/+$/, '');
}

export function oneOf<T extends string>(env: Env, name: string, fallback: T, values: readonly T[]): T {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${values.join(', ')}${shown(name, raw)}`);
  }
  return raw as T;
}
