// .env.example lists exactly the variables that src/config/ reads, each with its default: read
// from the source (every `(env, 'NAME'` call and the SYNC_CRON_ prefix) and
// observed by running loadConfig on an environment that records what is asked of it.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';

const root = path.resolve(import.meta.dirname, '../..');
const configDir = path.join(root, 'src/config');
const source = readdirSync(configDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(path.join(configDir, f), 'utf8'))
  .join('\n');
const example = readFileSync(path.join(root, '.env.example'), 'utf8');

/** SYNC_CRON_<JOB> is a family: the example shows one member. */
const family = (name: string) => (name.startsWith('SYNC_CRON_') ? 'SYNC_CRON_*' : name);

function readInSource(): Set<string> {
  const names = new Set([...source.matchAll(/\(\s*env,\s*'([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]));
  if (source.includes("startsWith('SYNC_CRON_')")) names.add('SYNC_CRON_*');
  return names;
}

function readAtRuntime(): Set<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ncd-env-example-'));
  const asked = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_t, name) {
      if (typeof name === 'string') asked.add(name);
      return name === 'DATA_DIR' ? dataDir : undefined;
    },
    ownKeys() {
      asked.add('SYNC_CRON_*'); // the SYNC_CRON_ scan enumerates the environment
      return [];
    },
  });
  loadConfig(env);
  return asked;
}

function listedInExample(): Map<string, string> {
  const listed = new Map<string, string>();
  for (const line of example.split('\n')) {
    const m = /^#?\s?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) listed.set(family(m[1]), m[2]);
  }
  return listed;
}

describe('.env.example', () => {
  it('lists exactly the variables config.ts reads', () => {
    const expected = new Set([...readInSource(), ...readAtRuntime()]);
    expect(expected.size).toBeGreaterThan(30);
    expect([...listedInExample().keys()].sort()).toEqual([...expected].sort());
  });

  it("gives each variable config.ts's own default, and changes nothing when copied as is", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ncd-env-example-'));
    const defaults = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x'.repeat(32) });
    const uncommented: Record<string, string> = { SECRET_KEY: 'x'.repeat(32) };
    for (const [name, value] of listedInExample())
      if (value !== '' && name !== 'SYNC_CRON_*') uncommented[name] = value;
    // Every line is commented out: a copied .env has no effect until edited.
    expect(example.split('\n').filter((l) => /^[A-Z]/.test(l))).toEqual([]);
    const fromExample = loadConfig({ ...uncommented, DATA_DIR: dataDir });
    expect({ ...fromExample, baseUrlConfigured: false, dataDir: '' }).toEqual({
      ...defaults,
      dataDir: '',
    });
  });
});
