// The documentation names only files that are in the repository: README.md, docs/*.md and each
// src/<folder>/README.md. Markdown links must resolve from the page; backticked paths from the
// repository root, the page's folder or src/ (a README's `store/x.ts` is src/store/x.ts); a bare
// file name must exist under the page's folder or under a folder the page names (a root page's
// anywhere in the repository). Code blocks are examples and are left out.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'data', '.tmp', 'coverage', 'test-artifacts']);

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}
const ALL = walk(ROOT);

/** Names in backticks that are not files of this repository, with why. */
const NOT_REPOSITORY_FILES: Record<string, string> = {
  '.mcp.json': "Claude Code's MCP configuration in the reader's own project",
  'dist/server.mjs': 'the bundle esbuild writes at each start; built, never committed',
};

const TOP = /^(?:src|test|docs|bench|clients|reference|scripts|bin|docker|web|\.ci)\//;
const FILE = /^[\w./-]+\.(?:ts|mts|mjs|js|json|md|sql|yaml|yml|sh|csv|ndjson|xml|html|css)$/;

const pages = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(ROOT, 'src', d.name, 'README.md')))
    .map((d) => `src/${d.name}/README.md`),
];

function missingIn(page: string): string[] {
  const text = readFileSync(path.join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  const dir = path.dirname(path.join(ROOT, page));
  const tokens = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1].replace(/[:,.;)]+$/, ''));
  const folders = tokens
    .filter((t) => t.endsWith('/'))
    .flatMap((t) => [path.join(ROOT, t), path.resolve(dir, t), path.join(ROOT, 'src', t)])
    .filter((f) => existsSync(f))
    .map((f) => path.resolve(f));
  const scopes = dir === ROOT || page.startsWith('docs/') ? [ROOT] : [dir, ...folders];
  const missing = new Set<string>();
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1].split('#')[0];
    if (!target || /^[a-z]+:/i.test(target)) continue;
    if (!existsSync(path.resolve(dir, target))) missing.add(`link ${target}`);
  }
  for (const t of tokens) {
    if (/[*<>{}…$]/.test(t) || t.startsWith('/') || t in NOT_REPOSITORY_FILES) continue;
    if (!TOP.test(t) && !FILE.test(t)) continue;
    if ([path.join(ROOT, t), path.resolve(dir, t), path.join(ROOT, 'src', t)].some((c) => existsSync(c))) continue;
    // A bare name, or a path below a folder the page is about (`schema/x.ts` in engine/).
    if (ALL.some((f) => f.endsWith(`/${t}`) && scopes.some((s) => f.startsWith(`${s}/`)))) continue;
    missing.add(t);
  }
  return [...missing];
}

describe('file references in the documentation', () => {
  it('covers README.md, docs/*.md and the src/ folder READMEs', () => {
    expect(pages).toContain('docs/architecture.md');
    expect(pages.filter((p) => p.startsWith('src/')).length).toBeGreaterThanOrEqual(10);
  });

  it.each(pages)('%s names only files that exist', (page) => {
    expect(missingIn(page)).toEqual([]);
  });

  it('keeps its list of names that are not repository files short and true', () => {
    for (const name of Object.keys(NOT_REPOSITORY_FILES))
      expect(
        ALL.some((f) => f.endsWith(`/${name}`)),
        name,
      ).toBe(false);
  });
});
