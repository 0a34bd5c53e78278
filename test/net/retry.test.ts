import { describe, expect, it } from 'vitest';
import { retryAfterMs, withRetry } from '../../src/net/retry.ts';

describe('withRetry', () => {
  it('retries while delayFor gives a delay, reporting each wait, and returns the first success', async () => {
    const waits: number[] = [];
    const reported: Array<{ attempt: number; delayMs: number }> = [];
    const result = await withRetry(
      async (attempt) => {
        if (attempt < 2) throw new Error(`busy ${attempt}`);
        return `ok after ${attempt}`;
      },
      {
        retries: 5,
        delayFor: (_err, attempt) => 100 * (attempt + 1),
        onRetry: ({ attempt, delayMs }) => reported.push({ attempt, delayMs }),
        sleep: async (ms) => void waits.push(ms),
      },
    );
    expect(result).toBe('ok after 2');
    expect(waits).toEqual([100, 200]);
    expect(reported).toEqual([
      { attempt: 1, delayMs: 100 },
      { attempt: 2, delayMs: 200 },
    ]);
  });

  it('rethrows at once when delayFor declines', async () => {
    const waits: number[] = [];
    let calls = 0;
    const failing = withRetry(
      async () => {
        calls++;
        throw new TypeError('not retryable');
      },
      {
        retries: 5,
        delayFor: (err) => (err instanceof TypeError ? undefined : 1),
        sleep: async (ms) => void waits.push(ms),
      },
    );
    await expect(failing).rejects.toThrow('not retryable');
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it('throws the last error once the retries are spent', async () => {
    let calls = 0;
    const failing = withRetry(
      async () => {
        throw new Error(`attempt ${calls++}`);
      },
      { retries: 2, delayFor: () => 0, sleep: async () => undefined },
    );
    await expect(failing).rejects.toThrow('attempt 2');
    expect(calls).toBe(3);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-04-20T12:00:00Z');
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Mon, 20 Apr 2026 12:00:30 GMT', 30_000],
    ['Mon, 20 Apr 2026 11:59:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j -> %s', (header, ms) => {
    expect(retryAfterMs(header, now)).toBe(ms);
  });
});
