// The software an evidence pack names: this package's name and version, read once.
import { readFileSync } from 'node:fs';
import { fromRoot } from '../project-root.ts';

let cached: { name: string; version: string } | undefined;

export function softwareVersion(): { name: string; version: string } {
  if (!cached) {
    const pkg = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { name: string; version: string };
    cached = { name: pkg.name, version: pkg.version };
  }
  return cached;
}
