// `npm run client:generate`: builds the app in memory on a throwaway embedded database, takes
// its OpenAPI document and writes clients/js/src/openapi.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { createLogger } from '../../../src/logger.ts';
import { GENERATED_TYPES_FILE, renderOpenApiTypes } from './render-types.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'ncd-openapi-'));
try {
  const config = loadConfig({
    DATA_DIR: dataDir,
    DEMO_DATA: 'off',
    SYNC_SCHEDULE: 'off',
    LOG_LEVEL: 'warn',
    SECRET_KEY: 'openapi-generation-only-'.padEnd(64, '0'),
  });
  const built = await buildApp(config, { logger: createLogger('warn') });
  try {
    await built.app.ready();
    const source = await renderOpenApiTypes(built.app.swagger());
    writeFileSync(GENERATED_TYPES_FILE, source);
    console.log(`wrote ${path.relative(process.cwd(), fileURLToPath(GENERATED_TYPES_FILE))}`);
  } finally {
    await built.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
