// docs/architecture.md names files and folders; when one moves or goes, this fails until the page
// follows, so the page stays true. It also keeps the "Where to find X" table complete.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
const page = read('docs/architecture.md');

/** Backticked repository paths: `src/…`, `test/…`, a folder with a trailing slash, a root file. */
const REPO_PATH = /^(?:src|test|docs|bench|clients|reference|scripts)\/[\w./-]*$|^[\w.-]+\.(?:ts|js|json|md)$/;
const named = [...page.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]).filter((t) => REPO_PATH.test(t));

const FEATURES = [
  'lookup',
  'search',
  'enrich',
  'updates feed',
  'shareholders',
  'groups',
  'licences',
  'inspections',
  'procurement',
  'screening',
  'keys',
  'usage',
  'push / destinations',
  'MCP',
  'coverage',
  'health',
  'web domains',
  'sync jobs',
];

function whereToFindRows(): Map<string, string[]> {
  const section = page.split(/^## Where to find X$/m)[1] ?? '';
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('|') || /^\|\s*(feature|-)/.test(line)) continue;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    rows.set(cells[0], cells.slice(1));
  }
  return rows;
}

describe('docs/architecture.md', () => {
  it('names many repository paths', () => {
    expect(named.length).toBeGreaterThan(60);
  });

  it('names only paths that exist', () => {
    expect(named.filter((p) => !existsSync(new URL(p, root)))).toEqual([]);
  });

  it('has a "Where to find X" row with a route, service, SQL, source and test column for each feature', () => {
    const rows = whereToFindRows();
    expect(FEATURES.filter((f) => !rows.has(f))).toEqual([]);
    for (const feature of FEATURES) {
      const cells = rows.get(feature)!;
      expect(cells, feature).toHaveLength(5);
      // The route and test columns always name a file.
      expect(cells[0], `${feature}: route`).toMatch(/`src\//);
      expect(cells[4], `${feature}: test`).toMatch(/`test\/.+\.test\.ts`/);
    }
  });

  it('is linked from README.md', () => {
    expect(read('README.md')).toMatch(/\]\(docs\/architecture\.md\)/);
  });
});
