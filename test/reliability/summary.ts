// globalSetup of `npm run test:reliability`: gives every scenario a directory of this run to
// record its row in (scenario, requests, 5xx, violations) and prints the table at the end.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { TMP } from '../helpers/env.ts';
import type { ScenarioRow } from './record.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    reliabilityDir: string;
  }
}

export function renderTable(rows: ScenarioRow[]): string {
  const head = ['scenario', 'requests', '5xx', 'violations', 'figures'];
  const figures = (r: ScenarioRow) =>
    Object.entries(r.figures ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join('; ');
  const body = rows.map((r) => [
    r.scenario,
    String(r.requests),
    String(r.fiveXx),
    String(r.violations.length),
    figures(r),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    '| ' + cells.map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
  const sep =
    '|' + widths.map((w, i) => (i === 0 || i === 4 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|';
  const total = rows.reduce((a, r) => [a[0] + r.requests, a[1] + r.fiveXx, a[2] + r.violations.length], [0, 0, 0]);
  return [line(head), sep, ...body.map(line), line(['total', ...total.map(String), ''])].join('\n');
}

export default function setup(project: TestProject) {
  const dir = path.join(TMP, `reliability-${process.pid}-${randomBytes(3).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  project.provide('reliabilityDir', dir);
  return () => {
    const rows: ScenarioRow[] = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as ScenarioRow)
      .sort((a, b) => a.order - b.order || a.scenario.localeCompare(b.scenario));
    const out = [
      '',
      'Reliability summary (5xx counts every 5xx answer, also the documented 503/502 of fault scenarios;',
      'violations are answers or states that break a rule of the scenario)',
      '',
      renderTable(rows),
    ];
    for (const r of rows.filter((x) => x.violations.length))
      out.push('', `${r.scenario}: ${r.violations.slice(0, 5).join('\n  ')}`);
    process.stdout.write(out.join('\n') + '\n\n');
    rmSync(dir, { recursive: true, force: true });
  };
}
