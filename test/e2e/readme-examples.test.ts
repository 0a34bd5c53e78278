// Every curl example in README.md, run as written (bash, the real curl) against a server holding
// the demo dataset (DEMO_DATA=auto loads it into an empty store; it is generated from a fixed
// seed, so the org numbers the README names exist). Only the host changes: localhost:3000 becomes
// this test server's address. A `# -> NNN` comment after a command is the status it must
// answer; without one, any 2xx. The quick start's own key flow (register, KEY=…, rotate) runs
// in order; the other blocks get a key of the `internal` tier in $KEY.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/jobs/demo-data.ts';
import { ROOT } from '../helpers/env.ts';
import { http } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const run = promisify(execFile);

interface Example {
  block: number;
  command: string;
  expected?: number;
}

/**
 * Examples that cannot run offline in a test, each with why. Matched against the command.
 * A push delivers to the webhook the destination names (hooks.example.com, outside us), and
 * creating that destination resolves its host through the system's DNS, which tests never use;
 * the event stream stays open by design.
 */
const NOT_RUN: { match: RegExp; why: string }[] = [
  { match: /\/api\/destinations/, why: 'its webhook host is resolved through DNS' },
  { match: /\/api\/push\//, why: 'delivers to a webhook outside us' },
  { match: /\/api\/events\/stream/, why: 'a stream that stays open' },
];

/** The curl commands of README's sh/bash blocks (continuation lines joined), with expected statuses. */
function readmeExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  const blocks = [...markdown.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  blocks.forEach((text, block) => {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^curl /.test(lines[i])) continue;
      let command = lines[i];
      while (command.endsWith('\\') && i + 1 < lines.length) command = `${command}\n${lines[++i]}`;
      // A JSON body may go on over lines inside its quotes.
      while ((command.match(/'/g) ?? []).length % 2 === 1 && i + 1 < lines.length) command += `\n${lines[++i]}`;
      const inline = /#\s*->\s*(\d{3})/.exec(command);
      const next = /^#\s*->\s*(\d{3})/.exec(lines[i + 1] ?? '');
      command = command.replace(/\s+#.*$/, '');
      examples.push({ block, command, expected: Number(inline?.[1] ?? next?.[1]) || undefined });
    }
  });
  return examples;
}

let server: TestServer;
let internalKey: string;

beforeAll(async () => {
  server = await startServer();
  await loadDemoData(server.ctx, () => undefined);
  const reg = await http(server.url, 'POST', '/api/keys/register', {
    body: { projectName: 'README examples', email: 'readme@example.com' },
  });
  internalKey = reg.body.raw;
  await server.services.keys.setTier(reg.body.keyPrefix, 'internal');
}, 600_000);
afterAll(() => server?.close());

/** Runs one README command in bash; returns the HTTP status and the body curl printed. */
async function runExample(command: string, key: string): Promise<{ status: number; body: string }> {
  const host = new URL(server.url).host;
  const script = `curl() { command curl -sS --max-time 30 -w '\\n%{http_code}' "$@"; }\n${command.replace(/(http:\/\/)?localhost:3000/g, `http://${host}`)}`;
  const { stdout } = await run('bash', ['--norc', '--noprofile', '-c', script], {
    env: { PATH: process.env.PATH, KEY: key },
    timeout: 60_000,
  });
  const nl = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(nl + 1)), body: stdout.slice(0, nl) };
}

describe('README examples', () => {
  const examples = readmeExamples(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

  it('finds the examples, and names demo org numbers that exist in the demo dataset', async () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    const numbers = new Set(examples.flatMap((e) => e.command.match(/\b\d{9}\b/g) ?? []));
    expect(numbers.size).toBeGreaterThan(0);
    for (const n of numbers) {
      const res = await http(server.url, 'GET', `/api/companies/${n}`, { key: internalKey });
      expect(res.status, `${n} is in the demo dataset`).toBe(200);
    }
  });

  it('runs the quick start key flow as written: register, usage, rotate, then 401', async () => {
    const flow = examples.filter((e) => e.block === examples[0].block);
    expect(flow.length).toBeGreaterThanOrEqual(4);
    let key = '';
    for (const e of flow) {
      const res = await runExample(e.command, key);
      expect(res.status, e.command).toBe(e.expected ?? (e.command.includes('/register') ? 201 : 200));
      if (e.command.includes('/register')) key = JSON.parse(res.body).raw;
    }
  });

  it('runs every other curl example with a 2xx (or its stated status)', async () => {
    const rest = examples.filter((e) => e.block !== examples[0].block);
    const ran: string[] = [];
    const skipped: string[] = [];
    for (const e of rest) {
      if (NOT_RUN.some((n) => n.match.test(e.command))) {
        skipped.push(e.command);
        continue;
      }
      const res = await runExample(e.command, internalKey);
      if (e.expected) expect(res.status, e.command).toBe(e.expected);
      else expect(res.status, `${e.command}\n${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
      if (!e.expected) expect(res.status, `${e.command}\n${res.body.slice(0, 300)}`).toBeLessThan(300);
      ran.push(e.command);
    }
    // The events page and the name matcher run; a new example runs too unless NOT_RUN names it.
    expect(ran.length).toBeGreaterThanOrEqual(2);
    expect(skipped).toHaveLength(NOT_RUN.length);
  });
});
