// Where the test suites keep their databases.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const TMP = path.join(ROOT, '.tmp');
export const serverMode = Boolean(process.env.DATABASE_URL);
export const TEST_SECRET = 'test-secret-key-0123456789abcdef0123456789abcdef';

/** A connection string for another database on the same server as DATABASE_URL. */
export function databaseUrl(name: string): string {
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = '/' + name;
  return u.toString();
}
