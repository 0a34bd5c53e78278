// "npm install prints no EBADENGINE warning on the declared Node versions": every package the
// lockfile installs must accept the oldest Node our own `engines` range allows. Dependencies that
// need a newer Node are pinned (or overridden in package.json "overrides") to versions that don't.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const manifest = read('package.json');
const lock = read('package-lock.json');

describe('declared Node versions', () => {
  const oldest = semver.minVersion(manifest.engines.node)!.version;

  it('the range starts at a Node 20 release', () => {
    expect(semver.major(oldest)).toBe(20);
  });

  it('every locked package accepts the oldest declared Node', () => {
    const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
      .filter(([, pkg]) => typeof pkg.engines?.node === 'string')
      .filter(([, pkg]) => !semver.satisfies(oldest, pkg.engines!.node!, { includePrerelease: true }))
      .map(([name, pkg]) => `${name} (${pkg.engines!.node})`);
    expect(refusing).toEqual([]);
  });

  it('the Node running the tests is inside the declared range', () => {
    expect(semver.satisfies(process.versions.node, manifest.engines.node)).toBe(true);
  });
});
