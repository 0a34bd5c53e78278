// An open event stream does not outlive its key: rotated or deactivated, the stream gets a final
// `event: end` and closes within one credential check, even for a key with no quota at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { EVENT_STREAM_CREDENTIAL_CHECK_MS: '200', EVENT_STREAM_HEARTBEAT_MS: '100' } });
});
afterAll(() => server?.close());

/** Opens a stream and returns a promise of everything it sent until the server ended it. */
async function open(key: string) {
  const ctrl = new AbortController();
  const res = await fetch(`${server.url}/api/events/stream`, {
    headers: { authorization: `Bearer ${key}` },
    signal: ctrl.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  })();
  // A stream still open after the deadline is the failure: abort it so the test ends.
  const timer = setTimeout(() => ctrl.abort(), 5000);
  return {
    ended: ended
      .then(
        (t) => ({ closedByServer: true, text: t }),
        () => ({ closedByServer: false, text }),
      )
      .finally(() => clearTimeout(timer)),
    heard: () => text,
  };
}

/** An unmetered key: no daily or monthly quota would ever end its stream. */
async function unlimitedKey() {
  return createKey(server, { tier: 'internal', limits: { rateLimitPerMinute: 0, dailyLimit: 0, monthlyLimit: 0 } });
}

describe('GET /api/events/stream and its key', () => {
  it('ends the stream once the key is rotated', async () => {
    const key = await unlimitedKey();
    const stream = await open(key.raw);
    await new Promise((r) => setTimeout(r, 400));
    // Still open and heartbeating while the key holds.
    expect(stream.heard()).toContain(': heartbeat');
    const rotated = await http(server.url, 'POST', '/api/keys/rotate', { key: key.raw });
    expect(rotated.status).toBe(201);
    const started = Date.now();
    const r = await stream.ended;
    expect(r.closedByServer).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r.text).toMatch(/event: end\ndata: \{"reason":"credential_invalid"/);
    // The new key streams as before.
    const again = await open(rotated.body.raw);
    await new Promise((res) => setTimeout(res, 300));
    expect(again.heard()).toContain('retry:');
    await server.services.keys.deactivate(rotated.body.keyPrefix);
    expect((await again.ended).closedByServer).toBe(true);
  });

  it('ends every stream of a deactivated key, and only those', async () => {
    const doomed = await unlimitedKey();
    const kept = await unlimitedKey();
    const a = await open(doomed.raw);
    const b = await open(doomed.raw);
    const c = await open(kept.raw);
    await new Promise((r) => setTimeout(r, 300));
    await server.services.keys.deactivate(doomed.keyPrefix);
    const [ra, rb] = await Promise.all([a.ended, b.ended]);
    expect(ra.closedByServer && rb.closedByServer).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    // The other key's stream is still open: it keeps hearing heartbeats.
    const before = c.heard().length;
    await new Promise((r) => setTimeout(r, 300));
    expect(c.heard().length).toBeGreaterThan(before);
    await server.services.keys.deactivate(kept.keyPrefix);
    expect((await c.ended).closedByServer).toBe(true);
  });
});
