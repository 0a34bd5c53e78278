// SECRET_KEY: given, or the one generated earlier into DATA_DIR, or generated now.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, str, type Env } from './env.ts';

/** Reads SECRET_KEY, or the one generated earlier into DATA_DIR, or generates it (file mode 0600). */
export function secretKey(env: Env, dataDir: string): string {
  const given = str(env, 'SECRET_KEY');
  if (given !== undefined) {
    if (given.length < 32) throw new ConfigError('SECRET_KEY', 'must be at least 32 characters long');
    return given;
  }
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length < 32)
      throw new ConfigError('SECRET_KEY', `stored in ${file} is too short; delete the file or set SECRET_KEY`);
    return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(32).toString('hex');
  writeFileSync(file, generated + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return generated;
}
