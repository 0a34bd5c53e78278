// `npm run lint:openapi`: builds the app in memory on a throwaway embedded database, writes its
// OpenAPI document to a temporary file and runs `redocly lint` (recommended rules, see
// redocly.yaml) on it. Exits with redocly's status, so CI records 0 errors as a pass.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/index.ts';
import { createLogger } from '../src/logger.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'ncd-openapi-lint-'));

async function lint(): Promise<number> {
  const config = loadConfig({
    DATA_DIR: path.join(dir, 'data'),
    DEMO_DATA: 'off',
    SYNC_SCHEDULE: 'off',
    LOG_LEVEL: 'warn',
    SECRET_KEY: 'openapi-lint-only-'.padEnd(64, '0'),
  });
  const built = await buildApp(config, { logger: createLogger('warn') });
  const file = path.join(dir, 'openapi.json');
  try {
    writeFileSync(file, JSON.stringify(built.app.swagger(), null, 2));
  } finally {
    await built.close();
  }
  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  const args = [cli, 'lint', file, '--config', path.resolve('redocly.yaml'), ...process.argv.slice(2)];
  return spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
}

try {
  process.exitCode = await lint();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
