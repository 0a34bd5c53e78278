// POST /internal/operator: a running server takes a typed, schema-checked operator command (not
// raw argv) from the `ncd` command, authorised by the token derived from SECRET_KEY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorToken } from '../../src/ops/operator-token.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = operatorToken(server.ctx.config.secretKey);
});
afterAll(() => server?.close());

async function send(body: unknown, headers: Record<string, string> = { 'x-operator-token': token }) {
  const res = await fetch(`${server.url}/internal/operator`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: res.ok ? undefined : JSON.parse(text) };
}

/** The NDJSON lines a command streamed back. */
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; result?: any; message?: string });

describe('POST /internal/operator', () => {
  it('runs a typed command and streams its result', async () => {
    const key = await createKey(server);
    const res = await send({ command: 'keys set-limits', keyPrefix: key.keyPrefix, rpm: 7, daily: 0, pageSize: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const [line] = lines(res.text);
    expect(line.type).toBe('result');
    expect(line.result).toMatchObject({ keyPrefix: key.keyPrefix, tier: 'free' });
    expect(line.result.limits).toMatchObject({ rateLimitPerMinute: 7, dailyLimit: null });

    const jobs = lines((await send({ command: 'jobs' })).text);
    expect(jobs.at(-1)!.result.jobs.map((j: { name: string }) => j.name)).toContain('coverage');
  });

  it('refuses a command without the operator token', async () => {
    for (const headers of [{}, { 'x-operator-token': 'nope' }] as Record<string, string>[]) {
      const res = await send({ command: 'jobs' }, headers);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
  });

  it('rejects a body that is not a typed command with 400 and the field at fault', async () => {
    const cases: [unknown, { path: string; message: RegExp }][] = [
      [{ argv: ['jobs'] }, { path: 'body.command', message: /is required/ }],
      [{ command: 'keys rotate' }, { path: 'body.command', message: /must be one of sync, jobs, jobs run/ }],
      [{ command: 'jobs run' }, { path: 'body.name', message: /is required/ }],
      [
        { command: 'sync', source: 'brreg', limit: 0 },
        { path: 'body.limit', message: />= 1/ },
      ],
      [
        { command: 'sync', source: 'brreg', year: '2024' },
        { path: 'body.year', message: /integer/ },
      ],
      [
        { command: 'keys set-limits', keyPrefix: 'ncd_x', pageSize: 101 },
        { path: 'body.pageSize', message: /./ },
      ],
    ];
    for (const [body, detail] of cases) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.details, JSON.stringify(body)).toContainEqual({
        path: detail.path,
        message: expect.stringMatching(detail.message),
      });
      // Only the branch the command names is checked: no detail about another command's fields.
      for (const d of res.body.details as { path: string }[])
        expect(['body', 'body.command', detail.path], JSON.stringify(body)).toContain(d.path);
    }
  });

  it('keeps every field of the command it checked (the body validator drops only unknown ones)', async () => {
    // A sync with both --file and --url reaches the command, which refuses the pair by name.
    const res = await send({ command: 'sync', source: 'coverage', file: '/nonexistent', url: 'http://127.0.0.1:9/' });
    expect(res.status).toBe(200);
    expect(lines(res.text)).toEqual([
      expect.objectContaining({ type: 'error', message: 'Give --file or --url, not both' }),
    ]);
    const unknown = lines((await send({ command: 'jobs run', name: 'nope' })).text);
    expect(unknown[0]).toMatchObject({ type: 'error', message: expect.stringContaining('Unknown source "nope"') });
  });
});
