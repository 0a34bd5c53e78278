// The start-up warning for a server reachable from other machines whose BASE_URL points at
// localhost (issue 22): links it hands out would lead to the reader's own machine.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configWarnings, loadConfig } from '../../src/config/index.ts';

const warnings = (env: Record<string, string>) =>
  configWarnings(loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'ncd-warn-')), ...env }));

describe('configWarnings', () => {
  it.each([
    [{}],
    [{ HOST: '127.0.0.1' }],
    [{ HOST: '::1', BASE_URL: 'http://localhost:3000' }],
    [{ HOST: 'localhost', BASE_URL: 'http://127.0.0.1:3000' }],
    [{ HOST: '0.0.0.0', BASE_URL: 'https://api.example.com' }],
    [{ HOST: '192.168.1.20', BASE_URL: 'http://192.168.1.20:3000' }],
  ])('is quiet for %o', (env) => {
    expect(warnings(env)).toEqual([]);
  });

  it('warns when HOST is not loopback and BASE_URL is the localhost default', () => {
    const [w, ...rest] = warnings({ HOST: '0.0.0.0' });
    expect(rest).toEqual([]);
    expect(w).toMatch(/^HOST is 0\.0\.0\.0 .* BASE_URL is not set: .*request's Host header\. Set BASE_URL/);
  });

  it.each(['http://localhost:8080', 'http://127.0.0.1:3000', 'http://[::1]:3000'])(
    'warns when HOST is not loopback and BASE_URL is set to %s',
    (base) => {
      const [w, ...rest] = warnings({ HOST: '::', BASE_URL: base });
      expect(rest).toEqual([]);
      expect(w).toContain(`HOST is :: (reachable from other machines) but BASE_URL is ${base}`);
    },
  );
});
